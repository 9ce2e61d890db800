package models

import "github.com/frame-oss/payments-server/internal/domain/verification"

// The closed sets of verification outcomes (spec doc 1 §2.5, §2.6): what
// went wrong and what the account holder can do about it.

// VerificationCategory is what a failed verification asks of the account
// holder: try again with new data, wait for review, retry later, or
// nothing (terminal).
type VerificationCategory string

// Verification categories.
const (
	CategoryRetriableWithNewData = VerificationCategory(verification.CategoryRetriableWithNewData)
	CategoryTerminal             = VerificationCategory(verification.CategoryTerminal)
	CategoryReview               = VerificationCategory(verification.CategoryReview)
	CategoryTransient            = VerificationCategory(verification.CategoryTransient)
)

// VerificationCategories is the closed set of verification categories.
var VerificationCategories = Enum(CategoryRetriableWithNewData, CategoryTerminal, CategoryReview, CategoryTransient)

// IdentityFailureType is why an identity verification run did not pass.
type IdentityFailureType string

// Identity failure types.
const (
	IdentityFailureIdentityMismatch     = IdentityFailureType(verification.FailureIdentityMismatch)
	IdentityFailureVerificationRejected = IdentityFailureType(verification.FailureVerificationRejected)
	IdentityFailureReviewPending        = IdentityFailureType(verification.FailureReviewPending)
	IdentityFailureProviderError        = IdentityFailureType(verification.FailureProviderError)
	IdentityFailureSignalsUnavailable   = IdentityFailureType(verification.FailureSignalsUnavailable)
)

// IdentityFailureTypes is the closed set of identity failure types.
var IdentityFailureTypes = Enum(IdentityFailureIdentityMismatch, IdentityFailureVerificationRejected,
	IdentityFailureReviewPending, IdentityFailureProviderError, IdentityFailureSignalsUnavailable)

// PhoneFailureType is why a phone verification did not pass.
type PhoneFailureType string

// Phone failure types.
const (
	PhoneFailureChallengeFailed     = PhoneFailureType(verification.FailureChallengeFailed)
	PhoneFailureLineNotEligible     = PhoneFailureType(verification.FailureLineNotEligible)
	PhoneFailureLineUntrusted       = PhoneFailureType(verification.FailureLineUntrusted)
	PhoneFailureOTPNotCompleted     = PhoneFailureType(verification.FailureOTPNotCompleted)
	PhoneFailureOTPAttemptsExceeded = PhoneFailureType(verification.FailureOTPAttemptsExceeded)
	PhoneFailureSessionOutOfOrder   = PhoneFailureType(verification.FailureSessionOutOfOrder)
	PhoneFailureExternalAPIError    = PhoneFailureType(verification.FailureExternalAPIError)
)

// PhoneFailureTypes is the closed set of phone failure types.
var PhoneFailureTypes = Enum(PhoneFailureChallengeFailed, PhoneFailureLineNotEligible, PhoneFailureLineUntrusted,
	PhoneFailureOTPNotCompleted, PhoneFailureOTPAttemptsExceeded, PhoneFailureSessionOutOfOrder, PhoneFailureExternalAPIError)

// GeoReason is why a location check did not clear.
type GeoReason string

// Geo compliance reasons. The spec's vpn_detected is part of the set,
// though the sandbox never reports it (docs/sandbox.md).
const (
	GeoReasonRestrictedTerritory = GeoReason(verification.GeoRestrictedTerritory)
	GeoReasonVPNDetected         = GeoReason("vpn_detected")
	GeoReasonNoLocationData      = GeoReason(verification.GeoNoLocationData)
)

// GeoReasons is the closed set of geo compliance reasons.
var GeoReasons = Enum(GeoReasonRestrictedTerritory, GeoReasonVPNDetected, GeoReasonNoLocationData)
