package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type discountKind struct{}

func (discountKind) objectName() string { return "discount" }

// Discount is a coupon applied to something billed (spec doc 2 §2.8),
// written by the one redemption function.
type Discount struct {
	bun.BaseModel `bun:"table:discounts,alias:di"`
	Tenant

	ID                     uuid.UUID            `bun:"id,pk,type:uuid" json:"id"`
	Object                 Object[discountKind] `bun:"-" json:"object"`
	CouponID               uuid.UUID            `bun:"coupon_id,type:uuid" json:"coupon" sdk:"coupon_id"`
	PromotionCodeID        *uuid.UUID           `bun:"promotion_code_id,type:uuid" json:"promotion_code" sdk:"promotion_code_id"`
	CustomerID             *uuid.UUID           `bun:"customer_id,type:uuid" json:"customer" sdk:"customer_id"`
	Account                *uuid.UUID           `bun:"-" json:"account"`
	AccountID              *uuid.UUID           `bun:"account_id,type:uuid" json:"account_id"`
	DiscountableType       string               `bun:"discountable_type" json:"discountable_type"`
	DiscountableID         *uuid.UUID           `bun:"discountable_id,type:uuid" json:"discountable_id"`
	ApplicationOrder       int                  `bun:"application_order" json:"application_order"`
	DiscountAmountCents    int64                `bun:"discount_amount_cents" json:"discount_amount_cents"`
	DiscountAmountCurrency string               `bun:"discount_amount_currency" json:"discount_amount_currency"`
	Created                wire.Timestamp       `bun:"created,type:timestamptz" json:"created"`
	Updated                wire.Timestamp       `bun:"updated,type:timestamptz" json:"updated"`
}

// Derive sets the members computed at read time.
func (d *Discount) Derive() { d.Account = d.AccountID }

// ValidateDiscountsInput is the body of POST /v1/discounts/validate.
type ValidateDiscountsInput struct {
	AmountCents    *int64   `json:"amount_cents" range:"amount"`
	PromotionCodes []string `json:"promotion_codes"`
	CustomerID     *string  `json:"customer_id"`
	AccountID      *string  `json:"account_id"`
	// ProductIDs name what the order holds, for coupons restricted to a
	// product (an extension: without it such coupons do not apply).
	ProductIDs []string `json:"product_ids"`
}

// CodeValidation is one code's result in a validation. Its coupon and
// promotion code are sent under the SDK's names too, as on a discount.
type CodeValidation struct {
	Code                string     `json:"code"`
	Valid               bool       `json:"valid"`
	Reason              *string    `json:"reason"`
	PromotionCodeID     *uuid.UUID `json:"promotion_code" sdk:"promotion_code_id"`
	CouponID            *uuid.UUID `json:"coupon" sdk:"coupon_id"`
	ApplicationOrder    *int       `json:"application_order"`
	DiscountAmountCents int64      `json:"discount_amount_cents"`
}

// DiscountValidation is the answer of POST /v1/discounts/validate: the
// spec's {validation_result, total_discount_amount_cents} (doc 2 §4.9),
// with the results under data too, where the Ruby SDK reads them (it
// builds a list object from data, each result's valid read from it).
type DiscountValidation struct {
	ValidationResult         []*CodeValidation `json:"validation_result" sdk:"data"`
	TotalDiscountAmountCents int64             `json:"total_discount_amount_cents"`
}
