package capability

import (
	"encoding/json"
	"testing"
)

func TestStepFor(t *testing.T) {
	tests := []struct {
		req  string
		want StepKey
		ok   bool
	}{
		{ReqPhoneVerification, StepPhoneVerification, true},
		{ReqFirstName, StepIDVerification, true},
		{ReqIndividualAddr, StepIDVerification, true},
		{"individual.future_field", StepIDVerification, true},
		{ReqIdentityVerification, StepIDVerification, true},
		{ReqDocumentVerification, StepIDVerification, true},
		{ReqKYCPrefillConfirmation, StepKYCPrefill, true},
		{ReqEIN, StepBeneficialOwners, true},
		{"business.future_field", StepBeneficialOwners, true},
		{ReqBusinessEmail, StepBeneficialOwners, true},
		{ReqBusinessPhone, StepBeneficialOwners, true},
		{ReqBeneficialOwners, StepBeneficialOwners, true},
		{ReqPaymentMethodCard, StepPaymentMethod, true},
		{ReqBankAccount, StepBankAccount, true},
		{ReqGeoCompliance, StepGeoCompliance, true},
		{ReqTermsOfService, StepTermsOfService, true},
		{"unknown", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.req, func(t *testing.T) {
			got, ok := StepFor(tt.req)
			equal(t, got, tt.want)
			equal(t, ok, tt.ok)
		})
	}
	// Every requirement of every capability, on either account type, maps
	// to a step.
	for _, typ := range []string{AccountIndividual, AccountBusiness} {
		for _, n := range AllNames() {
			for _, r := range RequirementsFor(n, typ) {
				if _, ok := StepFor(r); !ok {
					t.Errorf("%s/%s: requirement %q maps to no step", typ, n, r)
				}
			}
		}
	}
}

func TestSteps(t *testing.T) {
	idFields := keys(append(append([]string{}, kycFields...), ReqIdentityVerification)...)
	tos := func(status StepStatus, due ...string) Step {
		return Step{Key: StepTermsOfService, Status: status, Label: "Accept terms of service",
			Fields: keys(ReqTermsOfService), CurrentlyDue: keys(due...)}
	}
	tests := []struct {
		desc string
		caps map[Name]Status
		f    Facts
		want []Step
	}{
		{
			desc: "no capabilities",
			caps: nil,
			f:    Facts{},
			want: []Step{},
		},
		{
			desc: "only disabled and unrequested capabilities contribute nothing",
			caps: map[Name]Status{KYC: StatusDisabled, CardSend: StatusUnrequested},
			f:    Facts{},
			want: []Step{},
		},
		{
			desc: "kyc pending, nothing known: run withheld from due",
			caps: map[Name]Status{KYC: StatusPending},
			f:    Facts{},
			want: []Step{
				{Key: StepIDVerification, Status: StepPending, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys(kycFields...)},
				tos(StepPending, ReqTermsOfService),
			},
		},
		{
			desc: "kyc pending, all met: steps stay, completed",
			caps: map[Name]Status{KYC: StatusPending},
			f:    complete(),
			want: []Step{
				{Key: StepIDVerification, Status: StepCompleted, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys()},
				tos(StepCompleted),
			},
		},
		{
			desc: "active capability adds fields but nothing due",
			caps: map[Name]Status{CardSend: StatusActive},
			f:    Facts{},
			want: []Step{
				{Key: StepPaymentMethod, Status: StepCompleted, Label: "Add a payment card",
					Fields: keys(ReqPaymentMethodCard), CurrentlyDue: keys()},
				tos(StepCompleted),
			},
		},
		{
			desc: "active and pending sharing a step: pending one drives due",
			caps: map[Name]Status{CardVerification: StatusActive, CardSend: StatusPending},
			f:    with(func(f *Facts) { f.ActiveCard = false }),
			want: []Step{
				{Key: StepPaymentMethod, Status: StepPending, Label: "Add a payment card",
					Fields: keys(ReqPaymentMethodCard), CurrentlyDue: keys(ReqPaymentMethodCard)},
				tos(StepCompleted),
			},
		},
		{
			desc: "id_verification merges kyc, idv and address_verification, deduplicated in canonical order",
			caps: map[Name]Status{AddressVerification: StatusPending, IDV: StatusPending, KYC: StatusActive},
			f: with(func(f *Facts) {
				delete(f.Present, ReqIndividualAddr)
				f.DocumentVerified = false
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepPending, Label: "Verify identity",
					Fields:       keys(append(append([]string{}, kycFields...), ReqIdentityVerification, ReqDocumentVerification)...),
					CurrentlyDue: keys(ReqIndividualAddr, ReqDocumentVerification)},
				tos(StepCompleted),
			},
		},
		{
			desc: "due is the union across capabilities (creator_shield lists the run, kyc withholds it)",
			caps: map[Name]Status{KYC: StatusPending, CreatorShield: StatusPending},
			f: with(func(f *Facts) {
				delete(f.Present, ReqEmail)
				f.IdentityRun = nil
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepPending, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys(ReqEmail, ReqIdentityVerification)},
				tos(StepCompleted),
			},
		},
		{
			desc: "terminal failure: nothing due, step failed",
			caps: map[Name]Status{KYC: StatusPending},
			f: with(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepFailed, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys()},
				tos(StepCompleted),
			},
		},
		{
			desc: "terminal failure on an active capability: nothing is pursued, step completed",
			caps: map[Name]Status{KYC: StatusActive},
			f: with(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepCompleted, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys()},
				tos(StepCompleted),
			},
		},
		{
			desc: "terminal failure beside something still due: failed wins, due still listed",
			caps: map[Name]Status{KYC: StatusPending, IDV: StatusPending},
			f: with(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, Category: CategoryTerminal}
				f.DocumentVerified = false
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepFailed, Label: "Verify identity",
					Fields:       keys(append(append([]string{}, kycFields...), ReqIdentityVerification, ReqDocumentVerification)...),
					CurrentlyDue: keys(ReqDocumentVerification)},
				tos(StepCompleted),
			},
		},
		{
			desc: "a retriable failure keeps the step pending",
			caps: map[Name]Status{KYC: StatusPending},
			f: with(func(f *Facts) {
				f.IdentityRun = &RunOutcome{Status: RunFailed, FailureType: "identity_mismatch", Category: "retriable_with_new_data"}
			}),
			want: []Step{
				{Key: StepIDVerification, Status: StepPending, Label: "Verify identity",
					Fields: idFields, CurrentlyDue: keys(ReqIdentityVerification)},
				tos(StepCompleted),
			},
		},
		{
			desc: "every step, in fixed order",
			caps: func() map[Name]Status {
				m := map[Name]Status{}
				for _, n := range AllNames() {
					m[n] = StatusPending
				}
				return m
			}(),
			f: Facts{},
			want: []Step{
				{Key: StepPhoneVerification, Status: StepPending, Label: "Verify phone number",
					Fields: keys(ReqPhoneVerification), CurrentlyDue: keys(ReqPhoneVerification)},
				{Key: StepIDVerification, Status: StepPending, Label: "Verify identity",
					Fields: keys(append(append([]string{}, kycFields...), ReqIdentityVerification, ReqDocumentVerification)...),
					// creator_shield has no fields before its run, so the run is due.
					CurrentlyDue: keys(append(append([]string{}, kycFields...), ReqIdentityVerification, ReqDocumentVerification)...)},
				{Key: StepKYCPrefill, Status: StepPending, Label: "Confirm prefilled details",
					Fields: keys(ReqKYCPrefillConfirmation), CurrentlyDue: keys(ReqKYCPrefillConfirmation)},
				{Key: StepBeneficialOwners, Status: StepPending, Label: "Beneficial owners",
					Fields:       keys(append(append([]string{}, kybFields...), ReqBeneficialOwners)...),
					CurrentlyDue: keys(append(append([]string{}, kybFields...), ReqBeneficialOwners)...)},
				{Key: StepPaymentMethod, Status: StepPending, Label: "Add a payment card",
					Fields: keys(ReqPaymentMethodCard), CurrentlyDue: keys(ReqPaymentMethodCard)},
				{Key: StepBankAccount, Status: StepPending, Label: "Link a bank account",
					Fields: keys(ReqBankAccount), CurrentlyDue: keys(ReqBankAccount)},
				{Key: StepGeoCompliance, Status: StepPending, Label: "Location check",
					Fields: keys(ReqGeoCompliance), CurrentlyDue: keys(ReqGeoCompliance)},
				tos(StepPending, ReqTermsOfService),
			},
		},
		{
			desc: "geo blocked: step pending",
			caps: map[Name]Status{GeoCompliance: StatusPending},
			f:    with(func(f *Facts) { f.GeoStatus = GeoBlocked }),
			want: []Step{
				{Key: StepGeoCompliance, Status: StepPending, Label: "Location check",
					Fields: keys(ReqGeoCompliance), CurrentlyDue: keys(ReqGeoCompliance)},
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

func TestStepsMarshal(t *testing.T) {
	b, err := json.Marshal(Steps(nil, Facts{}))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, string(b), "[]")

	b, err = json.Marshal(Steps(map[Name]Status{CardSend: StatusActive}, complete()))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, string(b), `[`+
		`{"key":"payment_method","status":"completed","label":"Add a payment card","fields":["payment_method.card"],"currently_due":[]},`+
		`{"key":"terms_of_service","status":"completed","label":"Accept terms of service","fields":["terms_of_service"],"currently_due":[]}]`)
}

func TestOrderedUnknownKeysAreSortedLast(t *testing.T) {
	var s keySet
	for _, k := range []string{"individual.z", ReqEmail, "individual.a", ReqFirstName, "individual.z", ReqEmail} {
		s.add(k)
	}
	equal(t, s.ordered(), []string{ReqFirstName, ReqEmail, "individual.a", "individual.z"})
	var none keySet
	equal(t, none.ordered(), []string{})
}

// Every requirement key used by the catalogue, on either account type, has
// a canonical position, so step output never falls back to lexical order
// for real keys.
func TestRequirementOrderCoversCatalogue(t *testing.T) {
	known := map[string]bool{}
	for _, k := range requirementOrder {
		if known[k] {
			t.Errorf("duplicate %q in requirementOrder", k)
		}
		known[k] = true
	}
	for _, typ := range []string{AccountIndividual, AccountBusiness} {
		for _, n := range AllNames() {
			for _, r := range RequirementsFor(n, typ) {
				if !known[r] {
					t.Errorf("%s/%s: %q missing from requirementOrder", typ, n, r)
				}
			}
		}
	}
}
