package capability

import "testing"

func TestDeriveAccountStatus(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		desc       string
		in         AccountState
		wantStatus string
		wantReason *string
	}{
		{"fresh account", AccountState{}, AccountPending, nil},
		{"capability active", AccountState{AnyCapabilityActive: true}, AccountActive, nil},
		{"ever activated, no capability active now: never demoted",
			AccountState{EverActivated: true}, AccountActive, nil},
		{"disabled wins over everything",
			AccountState{Disabled: true, RestrictedBy: []string{RestrictedByPlatform}, ServiceBlockedReason: BlockedFraud, EverActivated: true, AnyCapabilityActive: true},
			AccountDisabled, str(BlockedDisabled)},
		{"merchant restriction",
			AccountState{RestrictedBy: []string{RestrictedByMerchant}, AnyCapabilityActive: true},
			AccountRestricted, str(BlockedMerchantRestricted)},
		{"platform restriction without explicit reason",
			AccountState{RestrictedBy: []string{RestrictedByPlatform}},
			AccountRestricted, str(BlockedPlatformRestricted)},
		{"platform beats merchant",
			AccountState{RestrictedBy: []string{RestrictedByMerchant, RestrictedByPlatform}},
			AccountRestricted, str(BlockedPlatformRestricted)},
		{"service reason beats merchant",
			AccountState{RestrictedBy: []string{RestrictedByMerchant}, ServiceBlockedReason: BlockedFraud},
			AccountRestricted, str(BlockedFraud)},
		{"service reason alone restricts",
			AccountState{ServiceBlockedReason: BlockedFraud, EverActivated: true},
			AccountRestricted, str(BlockedFraud)},
		{"service reason beats generic platform reason",
			AccountState{RestrictedBy: []string{RestrictedByPlatform}, ServiceBlockedReason: BlockedFraud},
			AccountRestricted, str(BlockedFraud)},
		{"explicit platform_restricted reason",
			AccountState{ServiceBlockedReason: BlockedPlatformRestricted},
			AccountRestricted, str(BlockedPlatformRestricted)},
		{"unknown restriction party fails closed as platform",
			AccountState{RestrictedBy: []string{"regulator"}},
			AccountRestricted, str(BlockedPlatformRestricted)},
		{"empty RestrictedBy slice is not a restriction",
			AccountState{RestrictedBy: []string{}, EverActivated: true},
			AccountActive, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			status, reason := DeriveAccountStatus(tt.in)
			equal(t, status, tt.wantStatus)
			equal(t, reason, tt.wantReason)
		})
	}
}

// Each call returns its own pointer so that a caller mutating the reason
// cannot affect another response.
func TestDeriveAccountStatusFreshPointer(t *testing.T) {
	_, a := DeriveAccountStatus(AccountState{Disabled: true})
	_, b := DeriveAccountStatus(AccountState{Disabled: true})
	if a == b {
		t.Fatal("reason pointers are shared")
	}
	*a = "mutated"
	equal(t, *b, BlockedDisabled)
}
