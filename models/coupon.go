package models

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type couponKind struct{}

func (couponKind) objectName() string { return "coupon" }

// Coupon is a reusable discount (spec doc 2 §2.8). DiscountValue renders
// from Value: basis points of a percentage ("12.5"), or minor units of a
// fixed amount in major units ("5.00").
type Coupon struct {
	bun.BaseModel `bun:"table:coupons,alias:co"`
	Tenant

	ID                         uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object                     Object[couponKind]  `bun:"-" json:"object"`
	Name                       string              `bun:"name" json:"name"`
	Description                *string             `bun:"description" json:"description"`
	DiscountType               DiscountType        `bun:"discount_type" json:"discount_type"`
	Value                      int64               `bun:"discount_value" json:"-"`
	DiscountValue              Decimal             `bun:"-" json:"discount_value"`
	DiscountValueCurrency      *string             `bun:"discount_value_currency" json:"discount_value_currency"`
	Duration                   CouponDuration      `bun:"duration" json:"duration"`
	DurationInMonths           *int                `bun:"duration_in_months" json:"duration_in_months"`
	Status                     CouponStatus        `bun:"status" json:"status"`
	ApplicableTo               CouponApplicability `bun:"applicable_to" json:"applicable_to"`
	ProductID                  *uuid.UUID          `bun:"product_id,type:uuid" json:"product_id,omitempty"`
	MaxRedemptions             *int                `bun:"max_redemptions,type:integer" json:"max_redemptions"`
	TimesRedeemed              int                 `bun:"times_redeemed" json:"times_redeemed"`
	MinimumOrderAmountCents    *int64              `bun:"minimum_order_amount_cents" json:"minimum_order_amount_cents"`
	MinimumOrderAmountCurrency *string             `bun:"minimum_order_amount_currency" json:"minimum_order_amount_currency"`
	DiscountCapCents           *int64              `bun:"discount_cap_cents" json:"discount_cap_cents"`
	DiscountCapCurrency        *string             `bun:"discount_cap_currency" json:"discount_cap_currency"`
	ValidFrom                  wire.Timestamp      `bun:"valid_from,nullzero,type:timestamptz" json:"valid_from"`
	ValidUntil                 wire.Timestamp      `bun:"valid_until,nullzero,type:timestamptz" json:"valid_until"`
	Metadata                   Metadata            `bun:"metadata,type:jsonb" json:"metadata"`
	IsExpired                  bool                `bun:"-" json:"is_expired"`
	IsMaxedOut                 bool                `bun:"-" json:"is_maxed_out"`
	Created                    wire.Timestamp      `bun:"created,type:timestamptz" json:"created"`
	Updated                    wire.Timestamp      `bun:"updated,type:timestamptz" json:"updated"`
}

// Derive sets the members computed at read time.
func (c *Coupon) Derive(now time.Time) {
	c.DiscountValue = DecimalFromHundredths(c.Value, c.DiscountType == "fixed_amount")
	c.IsExpired = !c.ValidUntil.IsZero() && !now.Before(c.ValidUntil.Time)
	c.IsMaxedOut = c.MaxRedemptions != nil && c.TimesRedeemed >= *c.MaxRedemptions
}

// NotYetValid reports a coupon whose validity has not begun at now.
func (c *Coupon) NotYetValid(now time.Time) bool {
	return !c.ValidFrom.IsZero() && now.Before(c.ValidFrom.Time)
}

// CreateCouponInput is the body of POST /v1/coupons (spec doc 2 §4.9).
type CreateCouponInput struct {
	Name                       *string              `json:"name"`
	Description                *string              `json:"description"`
	DiscountType               *DiscountType        `json:"discount_type"`
	DiscountValue              *Decimal             `json:"discount_value"`
	DiscountValueCurrency      *string              `json:"discount_value_currency"`
	Duration                   *CouponDuration      `json:"duration"`
	DurationInMonths           *int                 `json:"duration_in_months"`
	Status                     *CouponStatus        `json:"status"`
	ApplicableTo               *CouponApplicability `json:"applicable_to"`
	ProductID                  *string              `json:"product_id"`
	MaxRedemptions             *int                 `json:"max_redemptions"`
	ValidFrom                  *int64               `json:"valid_from" range:"unix"`
	ValidUntil                 *int64               `json:"valid_until" range:"unix"`
	MinimumOrderAmountCents    *int64               `json:"minimum_order_amount_cents" range:"amount"`
	MinimumOrderAmountCurrency *string              `json:"minimum_order_amount_currency"`
	DiscountCapCents           *int64               `json:"discount_cap_cents" range:"amount"`
	DiscountCapCurrency        *string              `json:"discount_cap_currency"`
	Metadata                   MetadataInput        `json:"metadata"`

	sdk sdkCouponMembers `wire:"alternatives"` // the real service's SDK's members (sdk_coupon_requests.go)
}

// UpdateCouponInput is the body of PATCH /v1/coupons/{id}.
type UpdateCouponInput struct {
	// Name renames the coupon (the official clients send it; the spec's
	// PATCH is silent): it stays unique per merchant and mode.
	Name           *string       `json:"name"`
	Description    *string       `json:"description"`
	Status         *CouponStatus `json:"status"`
	MaxRedemptions *int          `json:"max_redemptions"`
	Metadata       MetadataInput `json:"metadata"`
}

// Build validates the input and returns the coupon it describes (without
// id, times or tenant), reporting every problem at once.
func (in *CreateCouponInput) Build() (*Coupon, error) {
	var f apierr.Fields
	c := &Coupon{Status: "active", Description: in.Description}
	if checkText(&f, "name", in.Name, 100, true) && in.Name != nil {
		c.Name = strings.TrimSpace(*in.Name)
	}
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkMetadata(&f, "metadata", in.Metadata)
	c.Metadata = MergeMetadata(nil, in.Metadata)
	CheckMetadataSize(&f, "metadata", c.Metadata)
	c.DiscountType = required(&f, "discount_type", in.DiscountType, DiscountPercentage, DiscountFixedAmount)
	c.Duration = required[CouponDuration](&f, "duration", in.Duration, CouponOnce, CouponRepeating, CouponForever)
	c.ApplicableTo = required(&f, "applicable_to", in.ApplicableTo, ApplicableToAllProducts, ApplicableToSpecificProducts)
	if in.Status != nil && checkOneOf(&f, "status", in.Status, CouponActive, CouponInactive) {
		c.Status = *in.Status
	}
	// The SDK's percent_off and currency may have carried the value and
	// its currency (sdk_coupon_requests.go): a problem names what was sent.
	valuePath, currencyPath := in.sdk.carried.name("discount_value"), in.sdk.carried.name("discount_value_currency")
	in.sdk.check(&f, in)
	if in.DiscountValue == nil {
		f.Add("discount_value", "is required")
	} else if n, ok := in.DiscountValue.Hundredths(); !ok {
		f.Add(valuePath, "must be a number with at most two decimals")
	} else {
		switch c.DiscountType {
		case "percentage":
			if n > 10000 {
				f.Add(valuePath, "must be from 0 to 100 for a percentage")
			}
			if in.DiscountValueCurrency != nil {
				f.Add(currencyPath, "is only allowed for fixed_amount")
			}
		case "fixed_amount":
			switch {
			case n == 0:
				f.Add(valuePath, "must be greater than 0")
			case n > MaxAmount:
				f.Add(valuePath, "must be at most "+string(DecimalFromHundredths(MaxAmount, true))+" (the bound on money)")
			}
			c.DiscountValueCurrency = currencyOr(&f, currencyPath, in.DiscountValueCurrency, "USD")
		}
		c.Value = n
	}
	switch {
	case c.Duration == "repeating" && in.DurationInMonths == nil:
		f.Add("duration_in_months", "is required when duration is repeating")
	case c.Duration != "repeating" && in.DurationInMonths != nil:
		f.Add("duration_in_months", "is only allowed when duration is repeating")
	case in.DurationInMonths != nil && *in.DurationInMonths < 1:
		f.Add("duration_in_months", "must be at least 1")
	}
	c.DurationInMonths = in.DurationInMonths
	switch {
	case c.ApplicableTo == "specific_products" && in.ProductID == nil:
		f.Add("product_id", "is required when applicable_to is specific_products")
	case c.ApplicableTo == "all_products" && in.ProductID != nil:
		f.Add("product_id", "is only allowed when applicable_to is specific_products")
	}
	if in.MaxRedemptions != nil && *in.MaxRedemptions < 1 {
		f.Add("max_redemptions", "must be at least 1 (omit it for unlimited)")
	}
	c.MaxRedemptions = in.MaxRedemptions
	if in.ValidFrom != nil {
		c.ValidFrom = wire.At(time.Unix(*in.ValidFrom, 0).UTC())
	}
	if in.ValidUntil != nil {
		c.ValidUntil = wire.At(time.Unix(*in.ValidUntil, 0).UTC())
	}
	if in.ValidFrom != nil && in.ValidUntil != nil && *in.ValidUntil <= *in.ValidFrom {
		f.Add("valid_until", "must be after valid_from")
	}
	c.MinimumOrderAmountCents, c.DiscountCapCents = in.MinimumOrderAmountCents, in.DiscountCapCents
	if in.MinimumOrderAmountCents != nil {
		if *in.MinimumOrderAmountCents < 0 {
			f.Add("minimum_order_amount_cents", "must be at least 0")
		}
		c.MinimumOrderAmountCurrency = currencyOr(&f, "minimum_order_amount_currency", in.MinimumOrderAmountCurrency, "USD")
	}
	if in.DiscountCapCents != nil {
		if *in.DiscountCapCents < 0 {
			f.Add("discount_cap_cents", "must be at least 0")
		}
		c.DiscountCapCurrency = currencyOr(&f, "discount_cap_currency", in.DiscountCapCurrency, "USD")
	}
	return c, f.Err()
}

// Validate checks an update.
func (in *UpdateCouponInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "name", in.Name, 100, false)
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkOneOf(&f, "status", in.Status, CouponActive, CouponInactive)
	if in.MaxRedemptions != nil && *in.MaxRedemptions < 1 {
		f.Add("max_redemptions", "must be at least 1")
	}
	checkMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}

// currencyOr is the upper-cased currency given, or def.
func currencyOr(f *apierr.Fields, path string, v *string, def string) *string {
	if v == nil {
		return &def
	}
	if !checkCurrency(f, path, v) {
		return nil
	}
	c := strings.ToUpper(*v)
	return &c
}
