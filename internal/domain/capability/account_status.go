package capability

import "slices"

// Account statuses.
const (
	AccountPending    = "pending"
	AccountActive     = "active"
	AccountRestricted = "restricted"
	AccountDisabled   = "disabled"
)

// Parties that can restrict an account (AccountState.RestrictedBy).
const (
	RestrictedByMerchant = "merchant"
	RestrictedByPlatform = "platform"
)

// Blocked reasons returned with a non-active, non-pending account status.
const (
	BlockedDisabled           = "disabled"
	BlockedMerchantRestricted = "merchant_restricted"
	BlockedPlatformRestricted = "platform_restricted"
	BlockedFraud              = "fraud_blocked"
)

// AccountState are the facts the account status is derived from.
type AccountState struct {
	Disabled bool
	// RestrictedBy lists who holds a restriction: RestrictedByMerchant,
	// RestrictedByPlatform.
	RestrictedBy []string
	// ServiceBlockedReason is the platform's explicit reason for a hold:
	// "", BlockedFraud or BlockedPlatformRestricted.
	ServiceBlockedReason string
	// EverActivated records that the account reached active at least once.
	EverActivated bool
	// AnyCapabilityActive reports whether any capability is active now.
	AnyCapabilityActive bool
}

// DeriveAccountStatus computes the account status and, for disabled and
// restricted accounts, the blocked reason (nil otherwise; a fresh pointer
// each call).
//
// Precedence is disabled > restricted > active > pending, i.e. the
// strongest hold wins. Within restricted, the platform's reason wins over
// the merchant's: a platform hold (e.g. fraud) cannot be lifted by the
// merchant, so it is the one worth reporting. A restriction party this
// package does not know is treated as a platform hold, so that an
// unexpected value fails closed (restricted) rather than open.
//
// Active is sticky at account level too: once activated (or while any
// capability is active) the account stays active even if capabilities are
// later disabled, because merchants and end users depend on the account
// being usable; losing a capability restricts what it can do, not whether
// it exists.
func DeriveAccountStatus(s AccountState) (status string, blockedReason *string) {
	if s.Disabled {
		return AccountDisabled, new(BlockedDisabled)
	}
	if len(s.RestrictedBy) > 0 || s.ServiceBlockedReason != "" {
		return AccountRestricted, new(restrictionReason(s))
	}
	if s.EverActivated || s.AnyCapabilityActive {
		return AccountActive, nil
	}
	return AccountPending, nil
}

func restrictionReason(s AccountState) string {
	if s.ServiceBlockedReason != "" {
		return s.ServiceBlockedReason
	}
	platform := slices.ContainsFunc(s.RestrictedBy, func(p string) bool {
		return p != RestrictedByMerchant
	})
	if platform {
		return BlockedPlatformRestricted
	}
	return BlockedMerchantRestricted
}
