package capability

import "testing"

func TestLiveDependents(t *testing.T) {
	allPending := func() map[Name]Status {
		m := map[Name]Status{}
		for _, n := range AllNames() {
			m[n] = StatusPending
		}
		return m
	}()
	tests := []struct {
		name     string
		target   Name
		statuses map[Name]Status
		want     []Name
	}{
		{
			name:     "no statuses",
			target:   KYC,
			statuses: nil,
			want:     names(),
		},
		{
			name:     "card_verification blocked by pending card_send",
			target:   CardVerification,
			statuses: map[Name]Status{CardVerification: StatusActive, CardSend: StatusPending},
			want:     names(CardSend),
		},
		{
			name:     "card_verification blocked by card_receive",
			target:   CardVerification,
			statuses: map[Name]Status{CardVerification: StatusActive, CardReceive: StatusActive},
			want:     names(CardReceive),
		},
		{
			name:     "card_verification blocked by both",
			target:   CardVerification,
			statuses: allPending,
			want:     names(CardSend, CardReceive),
		},
		{
			name:     "kyc blocked by all its dependents",
			target:   KYC,
			statuses: allPending,
			want:     names(KYCPrefill, AddressVerification, CreatorShield, CardReceive, BankAccountReceive),
		},
		{
			name:   "kyc: only live dependents count",
			target: KYC,
			statuses: map[Name]Status{
				KYCPrefill:          StatusDisabled,
				AddressVerification: StatusActive,
				CreatorShield:       StatusUnrequested,
				CardReceive:         StatusPending,
			},
			want: names(AddressVerification, CardReceive),
		},
		{
			name:     "idv blocked by active age_verification",
			target:   IDV,
			statuses: map[Name]Status{IDV: StatusActive, AgeVerification: StatusActive},
			want:     names(AgeVerification),
		},
		{
			name:     "idv not blocked by disabled age_verification",
			target:   IDV,
			statuses: map[Name]Status{IDV: StatusActive, AgeVerification: StatusDisabled},
			want:     names(),
		},
		{
			name:     "phone_verification blocked by kyc_prefill",
			target:   PhoneVerification,
			statuses: allPending,
			want:     names(KYCPrefill),
		},
		{
			name:     "bank_account_verification blocked by send and receive",
			target:   BankAccountVerification,
			statuses: allPending,
			want:     names(BankAccountSend, BankAccountReceive),
		},
		{
			name:     "leaf capability has no dependents",
			target:   CardSend,
			statuses: allPending,
			want:     names(),
		},
		{
			name:     "capability without dependents",
			target:   GeoCompliance,
			statuses: allPending,
			want:     names(),
		},
		{
			name:     "target's own status is irrelevant",
			target:   KYC,
			statuses: map[Name]Status{KYC: StatusDisabled, CreatorShield: StatusPending},
			want:     names(CreatorShield),
		},
		{
			name:     "unknown status values are not live",
			target:   KYC,
			statuses: map[Name]Status{CreatorShield: "weird"},
			want:     names(),
		},
		{
			name:     "unknown target",
			target:   "bogus",
			statuses: allPending,
			want:     names(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			equal(t, LiveDependents(tt.target, tt.statuses), tt.want)
		})
	}
}

// LiveDependents must be the exact mirror of Expand: X blocks disabling Y
// (when live) iff requesting X creates Y.
func TestLiveDependentsMirrorsExpand(t *testing.T) {
	allActive := map[Name]Status{}
	for _, n := range AllNames() {
		allActive[n] = StatusActive
	}
	for _, y := range AllNames() {
		want := []Name{}
		for _, x := range AllNames() {
			if x == y {
				continue
			}
			for _, e := range Expand([]Name{x}) {
				if e == y {
					want = append(want, x)
				}
			}
		}
		equal(t, LiveDependents(y, allActive), want)
	}
}

// The catalogue's chains are one level deep today; this pins the transitive
// walk (including through non-live intermediates, and cycles) on a deeper
// synthetic graph: a -> b -> c -> target, d -> target.
func TestUpstreamTransitive(t *testing.T) {
	rev := map[Name][]Name{
		"target": {"c", "d"},
		"c":      {"b"},
		"b":      {"a"},
		"a":      {"target"}, // a cycle must neither loop nor include target
	}
	equal(t, upstream("target", rev), map[Name]bool{"a": true, "b": true, "c": true, "d": true})
	equal(t, upstream("c", rev), map[Name]bool{"a": true, "b": true, "target": true, "d": true})
	equal(t, upstream("x", rev), map[Name]bool{})
}
