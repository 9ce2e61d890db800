package models

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type threeDSIntentKind struct{}

func (threeDSIntentKind) objectName() string { return "three_ds_verification_intent" }

// ThreeDSChallengeURLBase is where a challenge_url sends the cardholder in
// the sandbox (which hosts no challenge page: the test helper
// POST /v1/test_helpers/3ds/intents/{id}/complete stands in for it).
const ThreeDSChallengeURLBase = "https://3ds.frame.test/challenge/"

// ThreeDSIntent is a 3-D Secure verification of one card (spec doc 2
// §2.9): created with a publishable or secret key, polled until it is no
// longer issued.
type ThreeDSIntent struct {
	bun.BaseModel `bun:"table:three_ds_intents,alias:tds"`
	Tenant

	ID               uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[threeDSIntentKind] `bun:"-" json:"object"`
	CustomerID       *uuid.UUID                `bun:"customer_id,type:uuid" json:"customer"`
	PaymentMethodID  uuid.UUID                 `bun:"payment_method_id,type:uuid" json:"payment_method" sdk:"payment_method_id"`
	Status           ThreeDSStatus             `bun:"status" json:"status"`
	ChallengeURL     *string                   `bun:"-" json:"challenge_url"`
	Completed        wire.Timestamp            `bun:"completed,nullzero" json:"completed"`
	Created          wire.Timestamp            `bun:"created" json:"created"`
	Updated          wire.Timestamp            `bun:"updated" json:"updated"`
	ChallengeToken   *string                   `bun:"challenge_token" json:"-"`
	ChallengeExpires wire.Timestamp            `bun:"challenge_expires,nullzero" json:"-"`
}

// Lapsed says whether an issued challenge ran out unanswered by now.
func (i *ThreeDSIntent) Lapsed(now time.Time) bool {
	return i.Status == ThreeDSIssued && !now.Before(i.ChallengeExpires.Time)
}

// Derive sets the members computed at read time: an issued intent whose
// challenge lapsed reads as failed, completed and updated when it lapsed; the
// challenge_url is shown only while the challenge waits.
func (i *ThreeDSIntent) Derive(now time.Time) {
	if i.Lapsed(now) {
		i.Status, i.Completed, i.Updated, i.ChallengeToken = ThreeDSFailed, i.ChallengeExpires, i.ChallengeExpires, nil
	}
	i.ChallengeURL = nil
	if i.Status == ThreeDSIssued && i.ChallengeToken != nil {
		u := ThreeDSChallengeURLBase + *i.ChallengeToken
		i.ChallengeURL = &u
	}
}

// CreateThreeDSIntentInput is the body of POST /v1/3ds/intents.
type CreateThreeDSIntentInput struct {
	PaymentMethodID *string `json:"payment_method_id"`
}

// Validate requires the payment method id. Its form is not checked here:
// a malformed id is answered like any id that names no eligible card.
func (in *CreateThreeDSIntentInput) Validate() error {
	var f apierr.Fields
	if in.PaymentMethodID == nil || strings.TrimSpace(*in.PaymentMethodID) == "" {
		f.Add("payment_method_id", "is required")
	} else if len(*in.PaymentMethodID) > 255 {
		f.Add("payment_method_id", "must be at most 255 characters")
	}
	return f.Err()
}
