package models

import (
	"encoding/json"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// SDKOnboardingSession is an onboarding session as the real service's
// SDK reads it from its /v1/onboarding/sessions family (OnboardingAPI,
// types/onboarding.ts): the session the spec describes (doc 1 §2.4), with
// the members that family adds and this server has values for: status
// (active until it expires or is replaced, then expired), created_at and
// updated_at.
type SDKOnboardingSession struct {
	*OnboardingSession
	SessionStatus OnboardingSessionStatus `json:"status"`
	CreatedAt     wire.Timestamp          `json:"created_at"`
	UpdatedAt     wire.Timestamp          `json:"updated_at"`
}

// AsSDKOnboardingSession renders s in the SDK family's shape, at now.
func AsSDKOnboardingSession(s *OnboardingSession, now time.Time) *SDKOnboardingSession {
	status := OnboardingSessionExpired
	if s.Status == "active" && now.Before(s.ExpiresAt.Time) {
		status = OnboardingSessionActive
	}
	return &SDKOnboardingSession{OnboardingSession: s, SessionStatus: status, CreatedAt: s.Created,
		UpdatedAt: s.Created}
}

// SDKOnboardingSessionList is the list envelope of GET
// /v1/onboarding/sessions as the SDK declares it (OnboardingSessionListResponse):
// a cursor page (limit, starting_after), not the spec's numbered page, as
// the spec does not describe this path.
type SDKOnboardingSessionList struct {
	Object  string                  `json:"object"`
	Data    []*SDKOnboardingSession `json:"data"`
	HasMore bool                    `json:"has_more"`
	URL     string                  `json:"url"`
}

// sdkOnboardingCreateMembers are the members the SDK's OnboardingAPI
// sends on a create that an onboarding session here has no place for: a
// session onboards an account (account_id), not a customer, and keeps no
// entry point, metadata or component settings. Each is refused with the
// validation error rather than dropped unseen.
type sdkOnboardingCreateMembers struct {
	CustomerID json.RawMessage `json:"customer_id"`
	EntryPoint json.RawMessage `json:"entry_point"`
	Metadata   json.RawMessage `json:"metadata"`
	Components json.RawMessage `json:"components"`
}

// UnmarshalJSON reads the spec's members and the SDK's.
func (in *CreateOnboardingSessionInput) UnmarshalJSON(b []byte) error {
	type plain CreateOnboardingSessionInput
	if err := json.Unmarshal(b, (*plain)(in)); err != nil {
		return err
	}
	return json.Unmarshal(b, &in.sdk)
}

func (m sdkOnboardingCreateMembers) check(f *apierr.Fields) {
	if m.CustomerID != nil {
		f.Add("customer_id", "is not accepted: an onboarding session onboards an account; send account_id")
	}
	if m.EntryPoint != nil {
		f.Add("entry_point", "is not accepted: a session's url is its entry point")
	}
	if m.Metadata != nil {
		f.Add("metadata", "is not accepted: onboarding sessions keep no metadata")
	}
	if m.Components != nil {
		f.Add("components", "is not accepted: the session's steps say what it shows")
	}
}

// UpdateSDKOnboardingSessionInput is the body of PATCH
// /v1/onboarding/sessions/{id} (the SDK's UpdateOnboardingSessionParams).
// The one change a session takes is to end it: status "expired" expires
// it at once, its url and secret with it. steps are fixed at creation.
type UpdateSDKOnboardingSessionInput struct {
	Status *string         `json:"status"`
	Steps  json.RawMessage `json:"steps"`
}

// Validate checks an update, every problem at once.
func (in *UpdateSDKOnboardingSessionInput) Validate() error {
	var f apierr.Fields
	if in.Status != nil && *in.Status != "expired" {
		f.Add("status", "must be expired: a session is ended by an update and opened by a create")
	}
	if in.Steps != nil {
		f.Add("steps", "is not accepted: a session's steps are fixed at creation")
	}
	return f.Err()
}

// OnboardingPayoutInput is the body of POST
// /v1/onboarding/sessions/{id}/payout: the payment method the session's
// account is paid out to.
type OnboardingPayoutInput struct {
	PayoutMethodID *string `json:"payout_method_id"`
}

// Validate checks the input.
func (in *OnboardingPayoutInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "payout_method_id", in.PayoutMethodID, 64, true)
	return f.Err()
}
