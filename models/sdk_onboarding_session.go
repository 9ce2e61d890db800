package models

import (
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// CustomerOnboardingSteps are the steps a customer's session may take
// the customer through: verifying who they are (a customer identity
// verification, spec doc 1 §2.7) and adding a payment method. The
// account steps beyond these (geo compliance) have no customer
// counterpart.
var CustomerOnboardingSteps = []capability.StepKey{capability.StepIDVerification, capability.StepPaymentMethod}

// SDKOnboardingSession is an onboarding session as the real service's
// SDK reads it from its /v1/onboarding/sessions family (OnboardingAPI,
// types/onboarding.ts): the session of an account or of a customer, with
// the SDK's members. user_id, components and completed_at have no value
// here and are null; steps is the object the SDK declares, each of the
// session's steps with whether the holder completed it.
type SDKOnboardingSession struct {
	ID           uuid.UUID                     `json:"id"`
	Object       Object[onboardingSessionKind] `json:"object"`
	AccountID    *uuid.UUID                    `json:"account_id"`
	CustomerID   *uuid.UUID                    `json:"customer_id"`
	UserID       *string                       `json:"user_id"`
	Status       OnboardingSessionStatus       `json:"status"`
	Steps        SDKOnboardingSteps            `json:"steps"`
	EntryPoint   *OnboardingEntryPoint         `json:"entry_point"`
	Metadata     Metadata                      `json:"metadata"`
	Components   *struct{}                     `json:"components"`
	ClientSecret *string                       `json:"client_secret"`
	ReturnURL    *string                       `json:"return_url"`
	URL          string                        `json:"url,omitempty"`
	ExpiresAt    wire.Timestamp                `json:"expires_at"`
	Livemode     bool                          `json:"livemode"`
	CreatedAt    wire.Timestamp                `json:"created_at"`
	UpdatedAt    wire.Timestamp                `json:"updated_at"`
	CompletedAt  *wire.Timestamp               `json:"completed_at"`

	session *OnboardingSession // the row rendered (Session)
}

// Session is the session rendered, as the spec's shape (and GraphQL's)
// knows it.
func (s *SDKOnboardingSession) Session() *OnboardingSession { return s.session }

// SDKOnboardingStepState is one step's state in the SDK family's shape.
type SDKOnboardingStepState struct {
	Status capability.StepStatus `json:"status"`
}

// SDKOnboardingSteps is the object the SDK declares, one member per step
// of the session: {"id_verification": {"status": "pending"}, …}.
type SDKOnboardingSteps map[capability.StepKey]SDKOnboardingStepState

// AsSDKOnboardingSession renders s in the SDK family's shape, at now.
func AsSDKOnboardingSession(s *OnboardingSession, now time.Time) *SDKOnboardingSession {
	status := OnboardingSessionExpired
	if s.Status == "active" && now.Before(s.ExpiresAt.Time) {
		status = OnboardingSessionActive
	}
	out := &SDKOnboardingSession{ID: s.ID, CustomerID: s.CustomerID, Status: status, EntryPoint: s.EntryPoint,
		Metadata: s.Metadata, ClientSecret: s.ClientSecret, ReturnURL: s.ReturnURL, URL: s.URL,
		ExpiresAt: s.ExpiresAt, Livemode: s.Livemode, CreatedAt: s.Created, UpdatedAt: s.Created,
		Steps: make(SDKOnboardingSteps, len(s.Steps)), session: s}
	if s.CustomerID == nil {
		account := s.AccountID
		out.AccountID = &account
	}
	if out.Metadata == nil {
		out.Metadata = Metadata{}
	}
	for _, key := range s.Steps {
		state := SDKOnboardingStepState{Status: capability.StepPending}
		if slices.Contains(s.CompletedSteps, key) {
			state.Status = capability.StepCompleted
		}
		out.Steps[key] = state
	}
	return out
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

// ValidateSDK checks a create on /v1/onboarding/sessions, every problem at
// once: an account (account_id) or a customer (customer_id), exactly one;
// steps among those the owner's kind of session takes.
func (in *CreateOnboardingSessionInput) ValidateSDK() error {
	var f apierr.Fields
	switch {
	case in.CustomerID != nil && in.AccountID != nil:
		f.Add("customer_id", "cannot be sent with account_id: a session onboards an account or a customer")
	case in.CustomerID != nil:
		checkText(&f, "customer_id", in.CustomerID, 64, true)
		in.checkSteps(&f, CustomerOnboardingSteps)
	default:
		if in.AccountID == nil || *in.AccountID == "" {
			f.Add("account_id", "is required: send account_id or customer_id")
		} else {
			in.checkAccount(&f)
		}
		in.checkSteps(&f, OnboardingSteps)
	}
	checkURL(&f, "return_url", in.ReturnURL)
	in.checkSDKMembers(&f)
	return f.Err()
}

func (m *CreateOnboardingSessionInput) checkSDKMembers(f *apierr.Fields) {
	if m.EntryPoint != nil && !slices.Contains(OnboardingEntryPoints, *m.EntryPoint) {
		f.Add("entry_point", "must be one of: kyc, checkout, payout")
	}
	checkMetadata(f, "metadata", m.Metadata)
	CheckMetadataSize(f, "metadata", MergeMetadata(nil, m.Metadata))
	m.refuseComponents(f)
}

// refuseComponents refuses components (null is no value): the session's
// steps say what it shows.
func (m *CreateOnboardingSessionInput) refuseComponents(f *apierr.Fields) {
	if m.Components != nil && string(m.Components) != "null" {
		f.Add("components", "is not accepted: the session's steps say what it shows")
	}
}

// refuseSDKMembers keeps the spec's route to the spec's members: a
// customer's session, an entry point and metadata are the SDK family's
// (/v1/onboarding/sessions).
func (m *CreateOnboardingSessionInput) refuseSDKMembers(f *apierr.Fields) {
	if m.CustomerID != nil {
		f.Add("customer_id", "is not accepted here: a customer's session is opened at /v1/onboarding/sessions")
	}
	if m.EntryPoint != nil {
		f.Add("entry_point", "is not accepted here: send it to /v1/onboarding/sessions")
	}
	if m.Metadata != nil {
		f.Add("metadata", "is not accepted here: send it to /v1/onboarding/sessions")
	}
	m.refuseComponents(f)
}

// UpdateSDKOnboardingSessionInput is the body of PATCH
// /v1/onboarding/sessions/{id} (the SDK's UpdateOnboardingSessionParams).
// status "expired" ends the session at once, its url and secret with it;
// steps reports the holder's progress, {"<step>": {"status":
// "completed"}} (or "pending" to undo it), for steps of the session.
type UpdateSDKOnboardingSessionInput struct {
	Status *string                              `json:"status"`
	Steps  map[capability.StepKey]SDKStepUpdate `json:"steps"`
}

// SDKStepUpdate is one step's reported progress.
type SDKStepUpdate struct {
	Status *capability.StepStatus `json:"status"`
}

// Validate checks an update, every problem at once (that each step is
// one of the session's is checked against the session).
func (in *UpdateSDKOnboardingSessionInput) Validate() error {
	var f apierr.Fields
	if in.Status != nil && *in.Status != "expired" {
		f.Add("status", "must be expired: a session is ended by an update and opened by a create")
	}
	keys := make([]capability.StepKey, 0, len(in.Steps))
	for k := range in.Steps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		path := "steps." + string(k)
		switch st := in.Steps[k].Status; {
		case !slices.Contains(StepKeys, k):
			f.Add("steps", "must name onboarding steps: "+joinSteps(StepKeys))
		case st == nil:
			f.Add(path+".status", "is required")
		case *st != capability.StepCompleted && *st != capability.StepPending:
			f.Add(path+".status", "must be completed or pending")
		}
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
