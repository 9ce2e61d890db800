package models

import (
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type onboardingSessionKind struct{}

func (onboardingSessionKind) objectName() string { return "onboarding_session" }

// OnboardingSession is a hosted onboarding session of one account (spec
// doc 1 §2.4). ClientSecret is given out when the session is created and
// to the bootstrap that presents it (only its hash is kept);
// URL on create and on get-by-account.
type OnboardingSession struct {
	bun.BaseModel `bun:"table:onboarding_sessions,alias:os"`
	Tenant

	ID           uuid.UUID                     `bun:"id,pk,type:uuid" json:"id"`
	Object       Object[onboardingSessionKind] `bun:"-" json:"object"`
	AccountID    uuid.UUID                     `bun:"account_id,type:uuid" json:"account_id"`
	ClientSecret *string                       `bun:"-" json:"client_secret"`
	ReturnURL    *string                       `bun:"return_url" json:"return_url"`
	ExpiresAt    wire.Timestamp                `bun:"expires_at" json:"expires_at"`
	Steps        []string                      `bun:"steps,array" json:"steps"`
	URL          string                        `bun:"-" json:"url,omitempty"`

	Status   string         `bun:"status" json:"-"`
	URLToken string         `bun:"url_token" json:"-"`
	Created  wire.Timestamp `bun:"created" json:"-"`
}

// OnboardingBootstrap is what the onboarding component loads with the
// session's secret: the session and the full account.
type OnboardingBootstrap struct {
	*OnboardingSession
	Account *Account `json:"account"`
}

// CreateOnboardingSessionInput is the body of POST /v1/onboarding_sessions.
type CreateOnboardingSessionInput struct {
	AccountID *string  `json:"account_id"`
	Steps     []string `json:"steps"`
	ReturnURL *string  `json:"return_url"`

	sdk sdkOnboardingCreateMembers // the real service's SDK's members (sdk_onboarding_session.go)
}

// OnboardingSteps are the steps a session may be limited to.
var OnboardingSteps = []string{"id_verification", "geo_compliance", "payment_method"}

// Validate checks a create, every problem at once.
func (in *CreateOnboardingSessionInput) Validate() error {
	var f apierr.Fields
	if in.AccountID == nil || *in.AccountID == "" {
		f.Add("account_id", "is required")
	} else {
		checkText(&f, "account_id", in.AccountID, 64, true)
	}
	seen := map[string]bool{}
	for _, s := range in.Steps {
		if !slices.Contains(OnboardingSteps, s) {
			f.Add("steps", "must contain only: "+strings.Join(OnboardingSteps, ", "))
			break
		}
		if seen[s] {
			f.Add("steps", "must name each step at most once")
			break
		}
		seen[s] = true
	}
	checkURL(&f, "return_url", in.ReturnURL)
	in.sdk.check(&f)
	return f.Err()
}
