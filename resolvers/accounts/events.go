package accounts

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of accounts and capabilities (API-DECISIONS §4).
var (
	EventAccountCreated      = events.Declare("account.created", "an account is created")
	EventAccountUpdated      = events.Declare("account.updated", "an account's profile, metadata, external id or terms change")
	EventAccountActivated    = events.Declare("account.activated", "an account becomes active")
	EventAccountRestricted   = events.Declare("account.restricted", "an account is restricted")
	EventAccountDisabled     = events.Declare("account.disabled", "an account is disabled (DELETE)")
	EventCapabilityActivated = events.Declare("capability.activated", "a capability becomes active")
	EventCapabilityDisabled  = events.Declare("capability.disabled", "a capability is disabled")
)

// Event types of phone verifications, identity verification runs, KYC
// prefill and customer identity verifications (spec doc 1 §6).
var (
	EventPhoneVerificationVerified    = events.Declare("account.phone_verification.verified", "a phone verification attempt is verified")
	EventPhoneVerificationFailed      = events.Declare("account.phone_verification.failed", "a phone verification attempt fails")
	EventIdentityVerificationApproved = events.Declare("account.identity_verification.approved", "an identity verification run is approved")
	EventIdentityVerificationFailed   = events.Declare("account.identity_verification.failed", "an identity verification run fails")
	// EventPrefillCompleted announces the first confirmation of prefilled
	// identity data.
	EventPrefillCompleted = events.Declare("platform.account.prefill.completed", "the first successful KYC prefill confirmation")

	EventCustomerIdentityVerificationCreated = events.Declare("customer.identity_verification.created", "a customer identity verification is created")
	EventCustomerIdentityVerificationUpdated = events.Declare("customer.identity_verification.updated", "a customer identity verification changes")
)
