package testenv

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
)

// CouponSpec describes a coupon (POST /v1/coupons); zero values are left
// out of the request.
type CouponSpec struct {
	// Name must be unique in the merchant's mode; Coupon gives each spec a
	// fresh one so a test can create several.
	Name         string
	Description  string
	DiscountType string // "percentage" or "fixed_amount"
	// DiscountValue is a percentage ("12.5") or, for fixed_amount, an
	// amount in major units ("2.00"), as the API takes it.
	DiscountValue           string
	Duration                string // "once", "repeating" or "forever"
	ApplicableTo            string // "all_products" or "specific_products"
	ProductID               string
	MaxRedemptions          int
	MinimumOrderAmountCents int64
	DiscountCapCents        int64
}

// Coupon is 10 % off once, on every product, under a unique name.
func Coupon() CouponSpec {
	return CouponSpec{Name: "TENOFF" + uuid.NewString()[:8], DiscountType: "percentage", DiscountValue: "10",
		Duration: "once", ApplicableTo: "all_products"}
}

// AmountOffCoupon is Coupon taking a fixed amount (major units, "2.00")
// off instead.
func AmountOffCoupon(value string) CouponSpec {
	s := Coupon()
	s.DiscountType, s.DiscountValue = "fixed_amount", value
	return s
}

// WithPercentOff takes percent ("50", "12.5") off instead of 10.
func (s CouponSpec) WithPercentOff(percent string) CouponSpec {
	s.DiscountType, s.DiscountValue = "percentage", percent
	return s
}

// WithMaxRedemptions caps the coupon's redemptions across all its codes.
func (s CouponSpec) WithMaxRedemptions(n int) CouponSpec {
	s.MaxRedemptions = n
	return s
}

// RESTBody renders s as a POST /v1/coupons body.
func (s CouponSpec) RESTBody() map[string]any {
	return fields{"name": s.Name, "description": s.Description, "discount_type": s.DiscountType,
		"discount_value": s.DiscountValue, "duration": s.Duration, "applicable_to": s.ApplicableTo,
		"product_id": s.ProductID, "max_redemptions": s.MaxRedemptions,
		"minimum_order_amount_cents": s.MinimumOrderAmountCents, "discount_cap_cents": s.DiscountCapCents}.set()
}

// CreateCoupon creates spec's coupon over REST; anything but 201 fails the
// test.
func (c *Client) CreateCoupon(spec CouponSpec) *models.Coupon {
	c.env.T.Helper()
	return create[models.Coupon](c, "coupon", "/v1/coupons", spec.RESTBody())
}

// PromotionCodeSpec describes a promotion code of a coupon (POST
// /v1/promotion_codes); zero values are left out of the request.
type PromotionCodeSpec struct {
	CouponID string
	// Code is what a customer types; PromotionCode gives each spec a fresh
	// one.
	Code       string
	CustomerID string
	// Inactive creates the code switched off.
	Inactive               bool
	FirstTimeTransaction   bool
	MaxRedemptions         int
	MaxCustomerRedemptions int
	MinimumAmountCents     int64
}

// PromotionCode is an active code of couponID under a unique code.
func PromotionCode(couponID string) PromotionCodeSpec {
	return PromotionCodeSpec{CouponID: couponID, Code: "code" + uuid.NewString()[:6]}
}

// WithCode names the code.
func (s PromotionCodeSpec) WithCode(code string) PromotionCodeSpec {
	s.Code = code
	return s
}

// WithMaxRedemptions caps the code's redemptions.
func (s PromotionCodeSpec) WithMaxRedemptions(n int) PromotionCodeSpec {
	s.MaxRedemptions = n
	return s
}

// RESTBody renders s as a POST /v1/promotion_codes body.
func (s PromotionCodeSpec) RESTBody() map[string]any {
	out := fields{"coupon_id": s.CouponID, "code": s.Code, "customer": s.CustomerID,
		"first_time_transaction": s.FirstTimeTransaction, "max_redemptions": s.MaxRedemptions,
		"max_customer_redemptions": s.MaxCustomerRedemptions, "minimum_amount_cents": s.MinimumAmountCents}.set()
	if s.Inactive {
		out["active"] = false
	}
	return out
}

// CreatePromotionCode creates spec's code over REST; anything but 201
// fails the test.
func (c *Client) CreatePromotionCode(spec PromotionCodeSpec) *models.PromotionCode {
	c.env.T.Helper()
	return create[models.PromotionCode](c, "promotion code", "/v1/promotion_codes", spec.RESTBody())
}
