package models

import (
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type promotionCodeKind struct{}

func (promotionCodeKind) objectName() string { return "promotion_code" }

// PromotionCode is a customer-facing code for a coupon (spec doc 2 §2.8).
type PromotionCode struct {
	bun.BaseModel `bun:"table:promotion_codes,alias:pc"`
	Tenant

	ID                     uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object                 Object[promotionCodeKind] `bun:"-" json:"object"`
	Code                   string                    `bun:"code" json:"code"`
	CouponID               uuid.UUID                 `bun:"coupon_id,type:uuid" json:"coupon" sdk:"coupon_id"`
	CustomerID             *uuid.UUID                `bun:"customer_id,type:uuid" json:"customer"`
	Active                 bool                      `bun:"active" json:"active"`
	FirstTimeTransaction   bool                      `bun:"first_time_transaction" json:"first_time_transaction"`
	MaxRedemptions         *int                      `bun:"max_redemptions,type:integer" json:"max_redemptions"`
	MaxCustomerRedemptions *int                      `bun:"max_customer_redemptions,type:integer" json:"max_customer_redemptions"`
	TimesRedeemed          int                       `bun:"times_redeemed" json:"times_redeemed"`
	MinimumAmountCents     *int64                    `bun:"minimum_amount_cents,type:bigint" json:"minimum_amount_cents"`
	MinimumAmountCurrency  string                    `bun:"minimum_amount_currency" json:"minimum_amount_currency"`
	ExpiresAt              wire.Timestamp            `bun:"expires_at,nullzero,type:timestamptz" json:"expires_at"`
	IsExpired              bool                      `bun:"-" json:"is_expired"`
	IsMaxedOut             bool                      `bun:"-" json:"is_maxed_out"`
	IsRedeemable           bool                      `bun:"-" json:"is_redeemable"`
	RemainingRedemptions   *int                      `bun:"-" json:"remaining_redemptions"`
	IsCustomerSpecific     bool                      `bun:"-" json:"is_customer_specific"`
	Created                wire.Timestamp            `bun:"created,type:timestamptz" json:"created_at" sdk:"created"`
	Updated                wire.Timestamp            `bun:"updated,type:timestamptz" json:"updated"`
	Metadata               Metadata                  `bun:"metadata,type:jsonb" json:"metadata"`
}

// Derive sets the members computed at read time.
func (p *PromotionCode) Derive(now time.Time) {
	p.IsExpired = !p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt.Time)
	p.IsMaxedOut = p.MaxRedemptions != nil && p.TimesRedeemed >= *p.MaxRedemptions
	p.IsRedeemable = p.Active && !p.IsExpired && !p.IsMaxedOut
	p.RemainingRedemptions = nil
	if p.MaxRedemptions != nil {
		r := max(*p.MaxRedemptions-p.TimesRedeemed, 0)
		p.RemainingRedemptions = &r
	}
	p.IsCustomerSpecific = p.CustomerID != nil
}

var rePromotionCode = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{0,63}$`)

// NormalizeCode is a code as stored and compared: trimmed, upper-case.
func NormalizeCode(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// PromotionCodeInput is the body of POST /v1/promotion_codes and PATCH
// /v1/promotion_codes/{id}. On PATCH, customer, expires_at and
// max_redemptions sent as null remove the restriction (the Clear members;
// GraphQL's clearCustomer, clearExpiresAt, clearMaxRedemptions).
type PromotionCodeInput struct {
	Code                   *string `json:"code"`
	CouponID               *string `json:"coupon_id"`
	Customer               *string `json:"customer"`
	Active                 *bool   `json:"active"`
	FirstTimeTransaction   *bool   `json:"first_time_transaction"`
	MaxRedemptions         *int    `json:"max_redemptions"`
	MaxCustomerRedemptions *int    `json:"max_customer_redemptions"`
	MinimumAmountCents     *int64  `json:"minimum_amount_cents" range:"amount"`
	MinimumAmountCurrency  *string `json:"minimum_amount_currency"`
	// ExpiresAt is ISO 8601 (spec).
	ExpiresAt           *string `json:"expires_at"`
	ClearCustomer       *bool   `json:"-" null:"customer"`
	ClearExpiresAt      *bool   `json:"-" null:"expires_at"`
	ClearMaxRedemptions *bool   `json:"-" null:"max_redemptions"`
	// Metadata is merged into the code's (a null or empty value removes its key).
	Metadata MetadataInput `json:"metadata"`

	sdk sdkPromotionCodeMembers `wire:"alternatives"` // the real service's SDK's members (sdk_promotion_code_requests.go)
}

// Validate checks the input (create requires code and coupon_id) and
// returns the parsed expiry.
func (in *PromotionCodeInput) Validate(create bool) (*time.Time, *apierr.Fields) {
	var f apierr.Fields
	if checkText(&f, "code", in.Code, 64, create) && in.Code != nil && !rePromotionCode.MatchString(NormalizeCode(*in.Code)) {
		f.Add("code", "must be 1-64 letters, digits, dashes or underscores")
	}
	if create {
		checkText(&f, "coupon_id", in.CouponID, 64, true)
	} else if in.CouponID != nil {
		f.Add("coupon_id", "cannot be changed")
	}
	if in.MaxRedemptions != nil && *in.MaxRedemptions < 1 {
		f.Add("max_redemptions", "must be at least 1 (null for unlimited)")
	}
	if in.MaxCustomerRedemptions != nil && *in.MaxCustomerRedemptions < 1 {
		f.Add("max_customer_redemptions", "must be at least 1")
	}
	if in.MinimumAmountCents != nil && *in.MinimumAmountCents < 0 {
		f.Add("minimum_amount_cents", "must be at least 0")
	}
	checkCurrency(&f, "minimum_amount_currency", in.MinimumAmountCurrency)
	var exp *time.Time
	if in.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339, *in.ExpiresAt)
		if err != nil {
			f.Add("expires_at", "must be an ISO 8601 timestamp")
		} else {
			t = t.UTC()
			exp = &t
		}
	}
	checkMetadata(&f, "metadata", in.Metadata)
	in.sdk.check(&f)
	return exp, &f
}

// ApplyTo sets the members in carries on p (the customer is resolved by
// the caller).
func (in *PromotionCodeInput) ApplyTo(p *PromotionCode, exp *time.Time) {
	if in.Metadata != nil || p.Metadata == nil {
		p.Metadata = MergeMetadata(p.Metadata, in.Metadata)
	}
	if in.Code != nil {
		p.Code = NormalizeCode(*in.Code)
	}
	if in.Active != nil {
		p.Active = *in.Active
	}
	if in.FirstTimeTransaction != nil {
		p.FirstTimeTransaction = *in.FirstTimeTransaction
	}
	if in.MaxRedemptions != nil {
		v := *in.MaxRedemptions
		p.MaxRedemptions = &v
	}
	if in.ClearMaxRedemptions != nil && *in.ClearMaxRedemptions {
		p.MaxRedemptions = nil
	}
	if in.MaxCustomerRedemptions != nil {
		v := *in.MaxCustomerRedemptions
		p.MaxCustomerRedemptions = &v
	}
	if in.MinimumAmountCents != nil {
		v := *in.MinimumAmountCents
		p.MinimumAmountCents = &v
	}
	if in.MinimumAmountCurrency != nil {
		p.MinimumAmountCurrency = strings.ToUpper(*in.MinimumAmountCurrency)
	}
	if exp != nil {
		p.ExpiresAt = wire.At(*exp)
	}
	if in.ClearExpiresAt != nil && *in.ClearExpiresAt {
		p.ExpiresAt = wire.Timestamp{}
	}
	if in.ClearCustomer != nil && *in.ClearCustomer {
		p.CustomerID = nil
	}
}
