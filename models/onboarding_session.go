package models

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type onboardingSessionKind struct{}

func (onboardingSessionKind) objectName() string { return "onboarding_session" }

// OnboardingSession is a hosted onboarding session of one account (spec
// doc 1 §2.4) or, opened through the SDK's /v1/onboarding/sessions family,
// of one customer (CustomerID; AccountID is then zero, and the spec's
// routes, which name accounts, never show it). ClientSecret is given out
// when the session is created and to the bootstrap that presents it (only
// its hash is kept); URL on create and on get-by-account. EntryPoint,
// Metadata and CompletedSteps are the SDK family's members
// (SDKOnboardingSession renders them).
type OnboardingSession struct {
	bun.BaseModel `bun:"table:onboarding_sessions,alias:os"`
	Tenant

	ID           uuid.UUID                     `bun:"id,pk,type:uuid" json:"id"`
	Object       Object[onboardingSessionKind] `bun:"-" json:"object"`
	AccountID    uuid.UUID                     `bun:"account_id,type:uuid,nullzero" json:"account_id"`
	ClientSecret *string                       `bun:"-" json:"client_secret"`
	ReturnURL    *string                       `bun:"return_url" json:"return_url"`
	ExpiresAt    wire.Timestamp                `bun:"expires_at" json:"expires_at"`
	Steps        []capability.StepKey          `bun:"steps,array" json:"steps"`
	URL          string                        `bun:"-" json:"url,omitempty"`

	Status         string                `bun:"status" json:"-"`
	URLToken       string                `bun:"url_token" json:"-"`
	Created        wire.Timestamp        `bun:"created" json:"-"`
	CustomerID     *uuid.UUID            `bun:"customer_id,type:uuid" json:"-"`
	EntryPoint     *OnboardingEntryPoint `bun:"entry_point" json:"-"`
	Metadata       Metadata              `bun:"metadata,type:jsonb" json:"-"`
	CompletedSteps []capability.StepKey  `bun:"completed_steps,array" json:"-"`
}

// OnboardingBootstrap is what the onboarding component loads with the
// session's secret: the session and the full account.
type OnboardingBootstrap struct {
	*OnboardingSession
	Account *Account `json:"account"`
}

// CreateOnboardingSessionInput is the body of POST /v1/onboarding_sessions
// (account_id, steps, return_url: the spec's), and of POST
// /v1/onboarding/sessions, where the SDK may name a customer instead of
// an account and add entry_point and metadata. components, which the
// SDK's create also offers, is refused: a session's steps say what it
// shows.
type CreateOnboardingSessionInput struct {
	AccountID *string              `json:"account_id"`
	Steps     []capability.StepKey `json:"steps"`
	ReturnURL *string              `json:"return_url"`

	// The SDK family's members (sdk_onboarding_session.go).
	CustomerID *string               `json:"customer_id"`
	EntryPoint *OnboardingEntryPoint `json:"entry_point"`
	Metadata   MetadataInput         `json:"metadata"`
	Components json.RawMessage       `json:"components"`
}

// OnboardingSteps are the steps a session of an account may be limited
// to (spec doc 1 §4.4).
var OnboardingSteps = []capability.StepKey{capability.StepIDVerification, capability.StepGeoCompliance,
	capability.StepPaymentMethod}

// Validate checks a create on the spec's route, every problem at once:
// it opens account sessions only, and the SDK family's members are not
// its own (the spec lists the route's members).
func (in *CreateOnboardingSessionInput) Validate() error {
	var f apierr.Fields
	in.checkAccount(&f)
	in.checkSteps(&f, OnboardingSteps)
	checkURL(&f, "return_url", in.ReturnURL)
	in.refuseSDKMembers(&f)
	return f.Err()
}

func (in *CreateOnboardingSessionInput) checkAccount(f *apierr.Fields) {
	if in.AccountID == nil || *in.AccountID == "" {
		f.Add("account_id", "is required")
	} else {
		checkText(f, "account_id", in.AccountID, 64, true)
	}
}

// checkSteps holds steps to allowed, each named at most once.
func (in *CreateOnboardingSessionInput) checkSteps(f *apierr.Fields, allowed []capability.StepKey) {
	seen := map[capability.StepKey]bool{}
	for _, s := range in.Steps {
		if !slices.Contains(allowed, s) {
			f.Add("steps", "must contain only: "+joinSteps(allowed))
			return
		}
		if seen[s] {
			f.Add("steps", "must name each step at most once")
			return
		}
		seen[s] = true
	}
}

func joinSteps(steps []capability.StepKey) string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
