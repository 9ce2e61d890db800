package models

import (
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// TermsOfServiceToken is a terms of service token minted by POST
// /v1/terms_of_service and accepted by PATCH, with its consent evidence.
// Only the token itself is ever answered ({token, object}).
type TermsOfServiceToken struct {
	bun.BaseModel `bun:"table:terms_of_service_tokens,alias:tos"`
	Tenant

	Token      string         `bun:"token,pk"`
	AccountID  *uuid.UUID     `bun:"account_id,type:uuid"`
	AcceptedAt wire.Timestamp `bun:"accepted_at,nullzero"`
	IPAddress  *string        `bun:"ip_address"`
	UserAgent  *string        `bun:"user_agent"`
	Created    wire.Timestamp `bun:"created"`
	Updated    wire.Timestamp `bun:"updated"`
}

type termsOfServiceKind struct{}

func (termsOfServiceKind) objectName() string { return "terms_of_service" }

// TermsToken is the answer of both terms of service operations: the token
// and, as the real service's clients read it, its object name.
type TermsToken struct {
	Token  string                     `json:"token"`
	Object Object[termsOfServiceKind] `json:"object"`
}

// TermsTokenPrefix starts every minted token.
const TermsTokenPrefix = "tos_"

var reMintedTermsToken = regexp.MustCompile(`^tos_[0-9A-Za-z]{32}$`)

// IsMintedTermsToken reports whether token has the shape of a minted
// token: only those are looked up when an account names one.
func IsMintedTermsToken(token string) bool { return reMintedTermsToken.MatchString(token) }

// CreateTermsOfServiceInput is the body of POST /v1/terms_of_service. The
// real service's clients send {}; account_id binds the token to an
// account at once.
type CreateTermsOfServiceInput struct {
	AccountID *string `json:"account_id"`
}

// Validate checks a create.
func (in *CreateTermsOfServiceInput) Validate() error {
	var f apierr.Fields
	if in.AccountID != nil {
		checkText(&f, "account_id", in.AccountID, 64, true)
	}
	return f.Err()
}

// AcceptTermsOfServiceInput is the body of PATCH /v1/terms_of_service.
// accepted_at is Unix seconds (the real service's clients send it so).
type AcceptTermsOfServiceInput struct {
	Token      *string `json:"token"`
	AcceptedAt *int64  `json:"accepted_at" range:"unix"`
	IPAddress  *string `json:"ip_address"`
	UserAgent  *string `json:"user_agent"`
}

// Validate checks an acceptance, every problem at once.
func (in *AcceptTermsOfServiceInput) Validate(now time.Time) error {
	var f apierr.Fields
	checkText(&f, "token", in.Token, 500, true)
	if in.AcceptedAt != nil && (*in.AcceptedAt < 0 || time.Unix(*in.AcceptedAt, 0).After(now)) {
		f.Add("accepted_at", "must be a Unix time in seconds, not in the future")
	}
	checkIP(&f, "ip_address", in.IPAddress)
	checkText(&f, "user_agent", in.UserAgent, 1000, false)
	return f.Err()
}

// Record is the account's terms record this acceptance makes.
func (t *TermsOfServiceToken) Record() *TermsOfService {
	token := t.Token
	return &TermsOfService{Token: &token, Accepted: true, AcceptedAt: ISOTime{Time: t.AcceptedAt.Time.UTC()},
		IPAddress: t.IPAddress, UserAgent: t.UserAgent}
}
