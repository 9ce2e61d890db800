package capability

import (
	"reflect"
	"strings"
	"testing"
)

// bizKYCFields are what kyc asks for on a business account before the run.
var bizKYCFields = []string{ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners}

// bizComplete returns facts of a business account that satisfy every
// requirement of every capability. Like a real business account it has no
// individual.* field present.
func bizComplete() Facts {
	f := complete()
	f.AccountType = AccountBusiness
	f.Present = PresentFields(append(append([]string{}, kybFields...), ReqBusinessEmail, ReqBusinessPhone)...)
	return f
}

// bizWith returns complete business facts modified by fn.
func bizWith(fn func(*Facts)) Facts {
	f := bizComplete()
	fn(&f)
	return f
}

func TestRequirementsFor(t *testing.T) {
	// Business overrides.
	equal(t, RequirementsFor(KYC, AccountBusiness),
		keys(ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners, ReqIdentityVerification, ReqTermsOfService))
	equal(t, RequirementsFor(AddressVerification, AccountBusiness),
		keys(ReqBusinessAddress, ReqIdentityVerification, ReqTermsOfService))
	equal(t, RequirementsFor("unknown", AccountBusiness), keys())

	for _, n := range AllNames() {
		// Individual, empty and unknown account types are all individual,
		// and Requirements is the individual list.
		for _, typ := range []string{AccountIndividual, "", "Business", "sole_trader"} {
			equal(t, RequirementsFor(n, typ), Requirements(n))
		}
		// Only kyc and address_verification differ on a business account.
		if n != KYC && n != AddressVerification {
			equal(t, RequirementsFor(n, AccountBusiness), Requirements(n))
		}
		// No business requirement names an individual.* field.
		for _, r := range RequirementsFor(n, AccountBusiness) {
			if strings.HasPrefix(r, "individual.") {
				t.Errorf("%s on a business account requires %q", n, r)
			}
		}
	}

	// RequirementsFor returns a copy.
	r := RequirementsFor(KYC, AccountBusiness)
	r[0] = "tampered"
	equal(t, RequirementsFor(KYC, AccountBusiness)[0], ReqBusinessEmail)
}

func TestEvaluateBusinessDue(t *testing.T) {
	bizOnly := Facts{AccountType: AccountBusiness}
	tests := []struct {
		name Name
		desc string
		f    Facts
		want []string
	}{
		// kyc
		{KYC, "nothing known: business contact and owners first, run withheld", bizOnly,
			keys(ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners, ReqTermsOfService)},
		{KYC, "individual fields present do not count (and are not asked for)",
			Facts{AccountType: AccountBusiness, Present: PresentFields(kycFields...)},
			keys(ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners, ReqTermsOfService)},
		{KYC, "kyb's fields do not count",
			Facts{AccountType: AccountBusiness, Present: PresentFields(kybFields...), TermsAccepted: true},
			keys(ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners)},
		{KYC, "the three met, no run: run due",
			bizWith(func(f *Facts) { f.IdentityRun = nil }), keys(ReqIdentityVerification)},
		{KYC, "the three met, no run, terms open: terms last",
			bizWith(func(f *Facts) { f.IdentityRun = nil; f.TermsAccepted = false }),
			keys(ReqIdentityVerification, ReqTermsOfService)},
		{KYC, "email missing withholds the run",
			bizWith(func(f *Facts) { delete(f.Present, ReqBusinessEmail); f.IdentityRun = nil }),
			keys(ReqBusinessEmail)},
		{KYC, "phone missing withholds the run",
			bizWith(func(f *Facts) { delete(f.Present, ReqBusinessPhone); f.IdentityRun = nil }),
			keys(ReqBusinessPhone)},
		{KYC, "owners not collected withholds even a failed run",
			bizWith(func(f *Facts) {
				f.BeneficialOwnersCollected = false
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
			}),
			keys(ReqBeneficialOwners)},
		{KYC, "the three met, retryable failure: run due again",
			bizWith(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
			}),
			keys(ReqIdentityVerification)},
		{KYC, "all met", bizComplete(), keys()},
		{KYC, "kyb-only fields missing do not matter",
			bizWith(func(f *Facts) { delete(f.Present, ReqEIN); delete(f.Present, ReqBusinessAddress) }), keys()},
		// address_verification
		{AddressVerification, "nothing known: business address, run withheld", bizOnly,
			keys(ReqBusinessAddress, ReqTermsOfService)},
		{AddressVerification, "an individual address does not count",
			Facts{AccountType: AccountBusiness, Present: PresentFields(ReqIndividualAddr), TermsAccepted: true},
			keys(ReqBusinessAddress)},
		{AddressVerification, "address missing withholds the run",
			bizWith(func(f *Facts) { delete(f.Present, ReqBusinessAddress); f.IdentityRun = nil }),
			keys(ReqBusinessAddress)},
		{AddressVerification, "address present, no run",
			bizWith(func(f *Facts) { f.IdentityRun = nil }), keys(ReqIdentityVerification)},
		{AddressVerification, "other business fields do not matter",
			bizWith(func(f *Facts) {
				delete(f.Present, ReqBusinessEmail)
				f.BeneficialOwnersCollected = false
			}), keys()},
		{AddressVerification, "all met", bizComplete(), keys()},
		// kyb is unchanged on a business account
		{KYB, "nothing known", bizOnly,
			keys(append(append([]string{}, kybFields...), ReqBeneficialOwners, ReqTermsOfService)...)},
		{KYB, "all met", bizComplete(), keys()},
	}
	for _, tt := range tests {
		t.Run(string(tt.name)+"/"+tt.desc, func(t *testing.T) {
			equal(t, Evaluate(tt.name, StatusPending, tt.f).CurrentlyDue, tt.want)
		})
	}
}

func TestEvaluateBusinessOutcomes(t *testing.T) {
	idErr := func(code, reason string) []Error {
		return []Error{{Code: code, Requirement: ReqIdentityVerification, Reason: reason}}
	}
	tests := []struct {
		desc      string
		name      Name
		f         Facts
		wantDue   []string
		wantErrs  []Error
		satisfied bool
		next      Status // NextStatus from pending
	}{
		{
			desc: "kyc: approved run, terms accepted: satisfied, activates", name: KYC,
			f:       bizComplete(),
			wantDue: keys(), wantErrs: []Error{}, satisfied: true, next: StatusActive,
		},
		{
			desc: "kyc: approved run, terms open: stays pending", name: KYC,
			f:       bizWith(func(f *Facts) { f.TermsAccepted = false }),
			wantDue: keys(ReqTermsOfService), wantErrs: []Error{}, next: StatusPending,
		},
		{
			desc: "kyc: approved run but owners no longer confirmed: stays pending", name: KYC,
			f:       bizWith(func(f *Facts) { f.BeneficialOwnersCollected = false }),
			wantDue: keys(ReqBeneficialOwners), wantErrs: []Error{}, next: StatusPending,
		},
		{
			desc: "kyc: terminal failure: nothing due, terms included", name: KYC,
			f: bizWith(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "document_fraud", Category: CategoryTerminal}
				f.TermsAccepted = false
			}),
			wantDue:  keys(),
			wantErrs: idErr("document_fraud", "Identity verification failed and cannot be retried."),
			next:     StatusPending,
		},
		{
			desc: "kyc: terminal failure with owners missing: nothing due", name: KYC,
			f: bizWith(func(f *Facts) {
				f.BeneficialOwnersCollected = false
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "document_fraud", Category: CategoryTerminal}
			}),
			wantDue:  keys(),
			wantErrs: idErr("document_fraud", "Identity verification failed and cannot be retried."),
			next:     StatusPending,
		},
		{
			desc: "kyc: review pending", name: KYC,
			f: bizWith(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: FailureReviewPending}
			}),
			wantDue:  keys(ReqIdentityVerification),
			wantErrs: idErr(CodeReviewPending, "Identity verification is waiting for manual review."),
			next:     StatusPending,
		},
		{
			desc: "address_verification: approved run: satisfied, activates", name: AddressVerification,
			f:       bizComplete(),
			wantDue: keys(), wantErrs: []Error{}, satisfied: true, next: StatusActive,
		},
		{
			desc: "address_verification: retryable failure carries the run error", name: AddressVerification,
			f: bizWith(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
			}),
			wantDue:  keys(ReqIdentityVerification),
			wantErrs: idErr("identity_mismatch", "Identity verification failed; check the details and try again."),
			next:     StatusPending,
		},
		{
			desc: "address_verification: terminal failure: nothing due", name: AddressVerification,
			f: bizWith(func(f *Facts) {
				delete(f.Present, ReqBusinessAddress)
				f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
			}),
			wantDue:  keys(),
			wantErrs: idErr(CodeVerificationFailed, "Identity verification failed and cannot be retried."),
			next:     StatusPending,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			ev := Evaluate(tt.name, StatusPending, tt.f)
			equal(t, ev.CurrentlyDue, tt.wantDue)
			equal(t, ev.Errors, tt.wantErrs)
			equal(t, ev.Satisfied, tt.satisfied)
			equal(t, NextStatus(StatusPending, ev), tt.next)
		})
	}
	// An active business kyc stays active and pursues nothing, but still
	// reports a later failure.
	failed := bizWith(func(f *Facts) {
		f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
	})
	ev := Evaluate(KYC, StatusActive, failed)
	equal(t, ev.CurrentlyDue, keys())
	equal(t, len(ev.Errors), 1)
	equal(t, NextStatus(StatusActive, ev), StatusActive)
}

// Individual accounts are unchanged, and so is an account whose type is
// empty or unknown: they are evaluated as individual.
func TestEvaluateIndividualUnchanged(t *testing.T) {
	indivDue := keys(append(append([]string{}, kycFields...), ReqTermsOfService)...)
	for _, typ := range []string{AccountIndividual, "", "unknown"} {
		t.Run("type="+typ, func(t *testing.T) {
			equal(t, Evaluate(KYC, StatusPending, Facts{AccountType: typ}).CurrentlyDue, indivDue)
			// Business contact details and owners do not stand in for the
			// individual profile.
			f := bizWith(func(f *Facts) { f.AccountType = typ })
			equal(t, Evaluate(KYC, StatusPending, f).CurrentlyDue, keys(kycFields...))
			equal(t, Evaluate(AddressVerification, StatusPending, f).CurrentlyDue, keys(ReqIndividualAddr))
			// The individual facts that satisfy everything still do.
			g := with(func(f *Facts) { f.AccountType = typ })
			for _, n := range AllNames() {
				equal(t, Evaluate(n, StatusPending, g), Evaluate(n, StatusPending, complete()))
			}
			equal(t, Steps(map[Name]Status{KYC: StatusPending, AddressVerification: StatusPending}, Facts{AccountType: typ}),
				Steps(map[Name]Status{KYC: StatusPending, AddressVerification: StatusPending}, Facts{}))
		})
	}
}

// Apart from kyc and address_verification, a business account is evaluated
// exactly like an individual one with the same facts.
func TestEvaluateBusinessOtherCapabilitiesUnchanged(t *testing.T) {
	variants := []func(*Facts){
		func(*Facts) {},
		func(f *Facts) { *f = Facts{AccountType: f.AccountType} },
		func(f *Facts) { f.TermsAccepted = false },
		func(f *Facts) { f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal} },
		func(f *Facts) { f.IdentityRun = &RunOutcome{Status: RunApproved, CreatorShieldFindings: true} },
		func(f *Facts) { f.GeoStatus = GeoBlocked },
	}
	for i, v := range variants {
		biz := bizWith(v)
		ind := bizWith(func(f *Facts) { v(f); f.AccountType = AccountIndividual })
		for _, n := range AllNames() {
			if n == KYC || n == AddressVerification {
				continue
			}
			for _, st := range []Status{StatusPending, StatusActive} {
				if got, want := Evaluate(n, st, biz), Evaluate(n, st, ind); !reflect.DeepEqual(got, want) {
					t.Errorf("variant %d, %s/%s: business %#v, individual %#v", i, n, st, got, want)
				}
			}
		}
	}
	// terms_of_service is due for every capability on a business account.
	f := bizWith(func(f *Facts) { f.TermsAccepted = false })
	for _, n := range AllNames() {
		ev := Evaluate(n, StatusPending, f)
		equal(t, ev.CurrentlyDue, keys(ReqTermsOfService))
		equal(t, ev.Satisfied, false)
	}
}

func TestStepsBusiness(t *testing.T) {
	bo := func(status StepStatus, fields, due []string) Step {
		return Step{Key: StepBeneficialOwners, Status: status, Label: "Beneficial owners",
			Fields: keys(fields...), CurrentlyDue: keys(due...)}
	}
	id := func(status StepStatus, due ...string) Step {
		return Step{Key: StepIDVerification, Status: status, Label: "Verify identity",
			Fields: keys(ReqIdentityVerification), CurrentlyDue: keys(due...)}
	}
	tos := func(status StepStatus, due ...string) Step {
		return Step{Key: StepTermsOfService, Status: status, Label: "Accept terms of service",
			Fields: keys(ReqTermsOfService), CurrentlyDue: keys(due...)}
	}
	kycOnly := map[Name]Status{KYC: StatusPending}
	tests := []struct {
		desc string
		caps map[Name]Status
		f    Facts
		want []Step
	}{
		{
			// The run is withheld while the business fields are due, so the
			// id_verification step has nothing due yet (the documented step
			// rule: completed when nothing of it is due).
			desc: "kyc, nothing known: business contact and owners due, no individual field anywhere",
			caps: kycOnly,
			f:    Facts{AccountType: AccountBusiness},
			want: []Step{
				id(StepCompleted),
				bo(StepPending, bizKYCFields, bizKYCFields),
				tos(StepPending, ReqTermsOfService),
			},
		},
		{
			desc: "kyc, the three met, no run: run due",
			caps: kycOnly,
			f:    bizWith(func(f *Facts) { f.IdentityRun = nil }),
			want: []Step{
				id(StepPending, ReqIdentityVerification),
				bo(StepCompleted, bizKYCFields, nil),
				tos(StepCompleted),
			},
		},
		{
			desc: "kyc, all met: steps stay, completed",
			caps: kycOnly,
			f:    bizComplete(),
			want: []Step{
				id(StepCompleted),
				bo(StepCompleted, bizKYCFields, nil),
				tos(StepCompleted),
			},
		},
		{
			desc: "kyc and kyb share the beneficial_owners step, in canonical order",
			caps: map[Name]Status{KYB: StatusPending, KYC: StatusPending},
			f:    Facts{AccountType: AccountBusiness},
			want: []Step{
				id(StepCompleted),
				bo(StepPending,
					append(append([]string{}, kybFields...), ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners),
					append(append([]string{}, kybFields...), ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners)),
				tos(StepPending, ReqTermsOfService),
			},
		},
		{
			desc: "kyc and address_verification: business address joins the step",
			caps: map[Name]Status{KYC: StatusActive, AddressVerification: StatusPending},
			f: bizWith(func(f *Facts) {
				delete(f.Present, ReqBusinessAddress)
			}),
			want: []Step{
				id(StepCompleted),
				bo(StepPending,
					[]string{ReqBusinessAddress, ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners},
					[]string{ReqBusinessAddress}),
				tos(StepCompleted),
			},
		},
		{
			desc: "kyc, terminal failure: nothing due, the run's step failed",
			caps: kycOnly,
			f: bizWith(func(f *Facts) {
				f.BeneficialOwnersCollected = false
				f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
			}),
			want: []Step{
				id(StepFailed),
				bo(StepCompleted, bizKYCFields, nil),
				tos(StepCompleted),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			equal(t, Steps(tt.caps, tt.f), tt.want)
		})
	}
}
