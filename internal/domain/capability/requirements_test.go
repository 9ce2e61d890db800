package capability

import (
	"encoding/json"
	"testing"
)

var kycFields = []string{
	ReqFirstName, ReqLastName, ReqBirthdate, ReqSSNLastFour, ReqIndividualAddr, ReqEmail, ReqPhone,
}

var kybFields = []string{ReqLegalName, ReqEIN, ReqBusinessType, ReqBusinessAddress}

// complete returns facts that satisfy every requirement of every capability.
func complete() Facts {
	return Facts{
		AccountType:               "individual",
		Present:                   PresentFields(append(append([]string{}, kycFields...), kybFields...)...),
		TermsAccepted:             true,
		IdentityRun:               &RunOutcome{Status: RunApproved},
		DocumentVerified:          true,
		PhoneVerified:             true,
		KYCPrefillConfirmed:       true,
		BeneficialOwnersCollected: true,
		ActiveCard:                true,
		BankAccountLinked:         true,
		GeoStatus:                 GeoClear,
	}
}

// with returns complete facts modified by fn.
func with(fn func(*Facts)) Facts {
	f := complete()
	fn(&f)
	return f
}

func withoutFields(fields ...string) Facts {
	return with(func(f *Facts) {
		for _, k := range fields {
			delete(f.Present, k)
		}
	})
}

func TestRequirements(t *testing.T) {
	tests := []struct {
		name Name
		want []string
	}{
		{KYC, keys(append(append([]string{}, kycFields...), ReqIdentityVerification, ReqTermsOfService)...)},
		{KYB, keys(append(append([]string{}, kybFields...), ReqBeneficialOwners, ReqTermsOfService)...)},
		{PhoneVerification, keys(ReqPhoneVerification, ReqTermsOfService)},
		{KYCPrefill, keys(ReqKYCPrefillConfirmation, ReqTermsOfService)},
		{IDV, keys(ReqDocumentVerification, ReqTermsOfService)},
		{AgeVerification, keys(ReqDocumentVerification, ReqTermsOfService)},
		{AddressVerification, keys(ReqIndividualAddr, ReqIdentityVerification, ReqTermsOfService)},
		{CardVerification, keys(ReqPaymentMethodCard, ReqTermsOfService)},
		{CardSend, keys(ReqPaymentMethodCard, ReqTermsOfService)},
		{CardReceive, keys(ReqPaymentMethodCard, ReqTermsOfService)},
		{BankAccountVerification, keys(ReqBankAccount, ReqTermsOfService)},
		{BankAccountSend, keys(ReqBankAccount, ReqTermsOfService)},
		{BankAccountReceive, keys(ReqBankAccount, ReqTermsOfService)},
		{GeoCompliance, keys(ReqGeoCompliance, ReqTermsOfService)},
		{CreatorShield, keys(ReqIdentityVerification, ReqTermsOfService)},
		{"unknown", keys()},
	}
	for _, tt := range tests {
		t.Run(string(tt.name), func(t *testing.T) {
			equal(t, Requirements(tt.name), tt.want)
		})
	}
	// Requirements returns a copy.
	r := Requirements(KYC)
	r[0] = "tampered"
	equal(t, Requirements(KYC)[0], ReqFirstName)
}

func TestPresentFields(t *testing.T) {
	equal(t, PresentFields(), map[string]bool{})
	equal(t, PresentFields("a", "", "b", "a"), map[string]bool{"a": true, "b": true})
}

func TestEvaluateDue(t *testing.T) {
	tests := []struct {
		name Name
		desc string
		f    Facts
		want []string
	}{
		// kyc
		{KYC, "all met", complete(), keys()},
		{KYC, "nothing known: fields first, run withheld", Facts{},
			keys(append(append([]string{}, kycFields...), ReqTermsOfService)...)},
		{KYC, "one field missing withholds the run", withoutFields(ReqBirthdate),
			keys(ReqBirthdate)},
		{KYC, "one field missing and a failed run: run still withheld",
			with(func(f *Facts) {
				delete(f.Present, ReqPhone)
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
			}),
			keys(ReqPhone)},
		{KYC, "fields present, no run", with(func(f *Facts) { f.IdentityRun = nil }),
			keys(ReqIdentityVerification)},
		{KYC, "fields present, failed retryable run", with(func(f *Facts) {
			f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
		}), keys(ReqIdentityVerification)},
		{KYC, "terms last", with(func(f *Facts) { f.IdentityRun = nil; f.TermsAccepted = false }),
			keys(ReqIdentityVerification, ReqTermsOfService)},
		{KYC, "findings do not matter for kyc", with(func(f *Facts) {
			f.IdentityRun = &RunOutcome{Status: RunApproved, CreatorShieldFindings: true}
		}), keys()},
		{KYC, "a present key set to false is missing", with(func(f *Facts) { f.Present[ReqEmail] = false }),
			keys(ReqEmail)},
		// kyb
		{KYB, "all met", complete(), keys()},
		{KYB, "nothing known", Facts{},
			keys(append(append([]string{}, kybFields...), ReqBeneficialOwners, ReqTermsOfService)...)},
		{KYB, "owners missing", with(func(f *Facts) { f.BeneficialOwnersCollected = false }),
			keys(ReqBeneficialOwners)},
		{KYB, "does not need an identity run", with(func(f *Facts) { f.IdentityRun = nil }), keys()},
		// single-fact capabilities
		{PhoneVerification, "unverified", with(func(f *Facts) { f.PhoneVerified = false }), keys(ReqPhoneVerification)},
		{KYCPrefill, "unconfirmed", with(func(f *Facts) { f.KYCPrefillConfirmed = false }), keys(ReqKYCPrefillConfirmation)},
		{IDV, "no document", with(func(f *Facts) { f.DocumentVerified = false }), keys(ReqDocumentVerification)},
		{AgeVerification, "no document", with(func(f *Facts) { f.DocumentVerified = false }), keys(ReqDocumentVerification)},
		{IDV, "identity run irrelevant", with(func(f *Facts) { f.IdentityRun = nil }), keys()},
		{CardVerification, "no card", with(func(f *Facts) { f.ActiveCard = false }), keys(ReqPaymentMethodCard)},
		{CardSend, "no card", with(func(f *Facts) { f.ActiveCard = false }), keys(ReqPaymentMethodCard)},
		{CardReceive, "no card", with(func(f *Facts) { f.ActiveCard = false }), keys(ReqPaymentMethodCard)},
		{BankAccountVerification, "no bank", with(func(f *Facts) { f.BankAccountLinked = false }), keys(ReqBankAccount)},
		{BankAccountSend, "no bank", with(func(f *Facts) { f.BankAccountLinked = false }), keys(ReqBankAccount)},
		{BankAccountReceive, "no bank", with(func(f *Facts) { f.BankAccountLinked = false }), keys(ReqBankAccount)},
		// address_verification
		{AddressVerification, "all met", complete(), keys()},
		{AddressVerification, "address missing withholds run",
			with(func(f *Facts) { delete(f.Present, ReqIndividualAddr); f.IdentityRun = nil }),
			keys(ReqIndividualAddr)},
		{AddressVerification, "other kyc fields do not matter",
			withoutFields(ReqFirstName, ReqSSNLastFour), keys()},
		{AddressVerification, "address present, no run", with(func(f *Facts) { f.IdentityRun = nil }),
			keys(ReqIdentityVerification)},
		// geo_compliance
		{GeoCompliance, "clear", complete(), keys()},
		{GeoCompliance, "none yet", with(func(f *Facts) { f.GeoStatus = "" }), keys(ReqGeoCompliance)},
		{GeoCompliance, "unknown", with(func(f *Facts) { f.GeoStatus = GeoUnknown }), keys(ReqGeoCompliance)},
		{GeoCompliance, "blocked", with(func(f *Facts) { f.GeoStatus = GeoBlocked }), keys(ReqGeoCompliance)},
		// creator_shield
		{CreatorShield, "clean approval", complete(), keys()},
		{CreatorShield, "no run: listed directly (no fields precede it)",
			with(func(f *Facts) { f.IdentityRun = nil; f.Present = nil }), keys(ReqIdentityVerification)},
		{CreatorShield, "approved with findings", with(func(f *Facts) {
			f.IdentityRun = &RunOutcome{Status: RunApproved, CreatorShieldFindings: true}
		}), keys(ReqIdentityVerification)},
		// terms
		{CardSend, "terms only", with(func(f *Facts) { f.TermsAccepted = false }), keys(ReqTermsOfService)},
		{GeoCompliance, "terms after requirement", with(func(f *Facts) { f.TermsAccepted = false; f.GeoStatus = "" }),
			keys(ReqGeoCompliance, ReqTermsOfService)},
	}
	for _, tt := range tests {
		t.Run(string(tt.name)+"/"+tt.desc, func(t *testing.T) {
			ev := Evaluate(tt.name, StatusPending, tt.f)
			equal(t, ev.CurrentlyDue, tt.want)
		})
	}
}

func TestEvaluateTermsDueForEveryCapability(t *testing.T) {
	f := with(func(f *Facts) { f.TermsAccepted = false })
	for _, n := range AllNames() {
		ev := Evaluate(n, StatusPending, f)
		equal(t, ev.CurrentlyDue, keys(ReqTermsOfService))
		equal(t, ev.Satisfied, false)
	}
}

func TestEvaluateErrors(t *testing.T) {
	run := func(r RunOutcome) Facts { return with(func(f *Facts) { f.IdentityRun = &r }) }
	idErr := func(code, reason string) []Error {
		return []Error{{Code: code, Requirement: ReqIdentityVerification, Reason: reason}}
	}
	tests := []struct {
		desc      string
		name      Name
		f         Facts
		wantErrs  []Error
		wantDue   []string
		satisfied bool
	}{
		{
			desc: "approved run: no error", name: KYC, f: complete(),
			wantErrs: []Error{}, wantDue: keys(), satisfied: true,
		},
		{
			desc: "no run concluded: no error, run due", name: KYC,
			f:        with(func(f *Facts) { f.IdentityRun = nil }),
			wantErrs: []Error{}, wantDue: keys(ReqIdentityVerification),
		},
		{
			desc: "failed: code is the failure type", name: KYC,
			f:        run(RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}),
			wantErrs: idErr("identity_mismatch", "Identity verification failed; check the details and try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "failed without a failure type", name: KYC,
			f:        run(RunOutcome{Status: RunFailed}),
			wantErrs: idErr(CodeVerificationFailed, "Identity verification failed; check the details and try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "failed terminal: nothing due, terms included", name: KYC,
			f: with(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "document_fraud", Category: CategoryTerminal}
				f.TermsAccepted = false
			}),
			wantErrs: idErr("document_fraud", "Identity verification failed and cannot be retried."),
			wantDue:  keys(),
		},
		{
			desc: "terminal with missing fields: nothing due", name: KYC,
			f: with(func(f *Facts) {
				delete(f.Present, ReqEmail)
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "document_fraud", Category: CategoryTerminal}
			}),
			wantErrs: idErr("document_fraud", "Identity verification failed and cannot be retried."),
			wantDue:  keys(),
		},
		{
			desc: "errored: provider_error", name: KYC,
			f:        run(RunOutcome{Status: RunErrored}),
			wantErrs: idErr(CodeProviderError, "Identity verification could not be completed because of a provider error; try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "errored with a failure type passes it through", name: KYC,
			f:        run(RunOutcome{Status: RunErrored, FailureType: "provider_timeout"}),
			wantErrs: idErr("provider_timeout", "Identity verification could not be completed because of a provider error; try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "errored is never terminal", name: KYC,
			f:        run(RunOutcome{Status: RunErrored, Category: CategoryTerminal}),
			wantErrs: idErr(CodeProviderError, "Identity verification could not be completed because of a provider error; try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "review pending", name: KYC,
			f:        run(RunOutcome{Status: RunFailed, FailureType: FailureReviewPending}),
			wantErrs: idErr(CodeReviewPending, "Identity verification is waiting for manual review."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "review pending is not terminal", name: KYC,
			f:        run(RunOutcome{Status: RunIncomplete, FailureType: FailureReviewPending, Category: CategoryTerminal}),
			wantErrs: idErr(CodeReviewPending, "Identity verification is waiting for manual review."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "incomplete", name: KYC,
			f:        run(RunOutcome{Status: RunIncomplete}),
			wantErrs: idErr(CodeVerificationIncomplete, "Identity verification was not completed; start it again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "unknown run status: no error, still due", name: KYC,
			f:        run(RunOutcome{Status: "processing"}),
			wantErrs: []Error{}, wantDue: keys(ReqIdentityVerification),
		},
		{
			desc: "address_verification carries the run error", name: AddressVerification,
			f:        run(RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}),
			wantErrs: idErr("identity_mismatch", "Identity verification failed; check the details and try again."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "creator_shield carries the run error", name: CreatorShield,
			f:        run(RunOutcome{Status: RunFailed, FailureType: "identity_mismatch", Category: CategoryTerminal}),
			wantErrs: idErr("identity_mismatch", "Identity verification failed and cannot be retried."),
			wantDue:  keys(),
		},
		{
			desc: "creator_shield adverse findings", name: CreatorShield,
			f:        run(RunOutcome{Status: RunApproved, CreatorShieldFindings: true}),
			wantErrs: idErr(CodeAdverseFindings, "Identity verification was approved but surfaced adverse findings."),
			wantDue:  keys(ReqIdentityVerification),
		},
		{
			desc: "capabilities without identity_verification ignore the run", name: IDV,
			f:        run(RunOutcome{Status: RunFailed, FailureType: "identity_mismatch", Category: CategoryTerminal}),
			wantErrs: []Error{}, wantDue: keys(), satisfied: true,
		},
		{
			desc: "kyb ignores the run", name: KYB,
			f:        run(RunOutcome{Status: RunFailed, Category: CategoryTerminal}),
			wantErrs: []Error{}, wantDue: keys(), satisfied: true,
		},
		{
			desc: "geo blocked", name: GeoCompliance,
			f: with(func(f *Facts) { f.GeoStatus = GeoBlocked }),
			wantErrs: []Error{{
				Code: CodeGeoComplianceBlocked, Requirement: ReqGeoCompliance,
				Reason: "The latest location check blocked this account.",
			}},
			wantDue: keys(ReqGeoCompliance),
		},
		{
			desc: "geo unknown: due, no error", name: GeoCompliance,
			f:        with(func(f *Facts) { f.GeoStatus = GeoUnknown }),
			wantErrs: []Error{}, wantDue: keys(ReqGeoCompliance),
		},
		{
			desc: "geo blocked does not affect other capabilities", name: CardSend,
			f:        with(func(f *Facts) { f.GeoStatus = GeoBlocked }),
			wantErrs: []Error{}, wantDue: keys(), satisfied: true,
		},
		{
			desc: "geo block is not reported on identity capabilities (the run speaks)", name: KYC,
			f:        with(func(f *Facts) { f.GeoStatus = GeoBlocked }),
			wantErrs: []Error{}, wantDue: keys(), satisfied: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			ev := Evaluate(tt.name, StatusPending, tt.f)
			equal(t, ev.Errors, tt.wantErrs)
			equal(t, ev.CurrentlyDue, tt.wantDue)
			equal(t, ev.Satisfied, tt.satisfied)
		})
	}
}

func TestEvaluateByStatus(t *testing.T) {
	failed := with(func(f *Facts) {
		f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch"}
		f.TermsAccepted = false
	})
	failedErr := []Error{{
		Code: "identity_mismatch", Requirement: ReqIdentityVerification,
		Reason: "Identity verification failed; check the details and try again.",
	}}
	tests := []struct {
		status    Status
		f         Facts
		wantDue   []string
		wantErrs  []Error
		satisfied bool
	}{
		{StatusPending, failed, keys(ReqIdentityVerification, ReqTermsOfService), failedErr, false},
		{StatusActive, failed, keys(), failedErr, false},
		{StatusDisabled, failed, keys(), []Error{}, false},
		{StatusUnrequested, failed, keys(), []Error{}, false},
		{"", failed, keys(), []Error{}, false},
		{StatusPending, complete(), keys(), []Error{}, true},
		{StatusActive, complete(), keys(), []Error{}, true},
		{StatusDisabled, complete(), keys(), []Error{}, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.status), func(t *testing.T) {
			ev := Evaluate(KYC, tt.status, tt.f)
			equal(t, ev.CurrentlyDue, tt.wantDue)
			equal(t, ev.Errors, tt.wantErrs)
			equal(t, ev.Satisfied, tt.satisfied)
		})
	}
}

func TestEvaluateUnknownCapability(t *testing.T) {
	ev := Evaluate("bogus", StatusPending, complete())
	equal(t, ev, Evaluation{CurrentlyDue: []string{}, Errors: []Error{}, Satisfied: false})
}

func TestEvaluateMarshalsEmptyListsAsArrays(t *testing.T) {
	for _, n := range AllNames() {
		for _, st := range []Status{StatusUnrequested, StatusPending, StatusActive, StatusDisabled} {
			for _, f := range []Facts{{}, complete()} {
				ev := Evaluate(n, st, f)
				if ev.CurrentlyDue == nil || ev.Errors == nil {
					t.Fatalf("%s/%s: nil list in %#v", n, st, ev)
				}
			}
		}
	}
	ev := Evaluate(KYC, StatusActive, complete())
	b, err := json.Marshal(struct {
		Due    []string `json:"currently_due"`
		Errors []Error  `json:"errors"`
	}{ev.CurrentlyDue, ev.Errors})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, string(b), `{"currently_due":[],"errors":[]}`)

	b, err = json.Marshal(Error{Code: "c", Requirement: "r", Reason: "why"})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, string(b), `{"code":"c","requirement":"r","reason":"why"}`)
}

func TestNextStatus(t *testing.T) {
	sat := Evaluation{Satisfied: true}
	unsat := Evaluation{Satisfied: false}
	tests := []struct {
		current Status
		ev      Evaluation
		want    Status
	}{
		{StatusPending, sat, StatusActive},
		{StatusPending, unsat, StatusPending},
		{StatusActive, sat, StatusActive},
		{StatusActive, unsat, StatusActive},
		{StatusDisabled, sat, StatusDisabled},
		{StatusDisabled, unsat, StatusDisabled},
		{StatusUnrequested, sat, StatusUnrequested},
		{StatusUnrequested, unsat, StatusUnrequested},
	}
	for _, tt := range tests {
		t.Run(string(tt.current), func(t *testing.T) {
			equal(t, NextStatus(tt.current, tt.ev), tt.want)
		})
	}
}

// End to end: a pending capability activates exactly when its evaluation is
// satisfied, and never on a terminal failure.
func TestEvaluateThenNextStatus(t *testing.T) {
	equal(t, NextStatus(StatusPending, Evaluate(KYC, StatusPending, complete())), StatusActive)
	terminal := with(func(f *Facts) {
		f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
	})
	ev := Evaluate(KYC, StatusPending, terminal)
	equal(t, len(ev.CurrentlyDue), 0)
	equal(t, NextStatus(StatusPending, ev), StatusPending)
	adverse := with(func(f *Facts) {
		f.IdentityRun = &RunOutcome{Status: RunApproved, CreatorShieldFindings: true}
	})
	equal(t, NextStatus(StatusPending, Evaluate(CreatorShield, StatusPending, adverse)), StatusPending)
	equal(t, NextStatus(StatusPending, Evaluate(KYC, StatusPending, adverse)), StatusActive)
}
