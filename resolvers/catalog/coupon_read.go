package catalog

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Coupons is the coupon family: reads from the kit, and Create and Update
// (coupon_ops.go).
type Coupons struct {
	op.Reader[models.Coupon, CouponFilter]
	svc *Service
}

func newCoupons(s *Service) *Coupons {
	return &Coupons{Reader: op.Read[models.Coupon, CouponFilter](s.Kit, couponTable), svc: s}
}

// couponTable reads coupons with their derived members at the time of the
// read.
var couponTable = &op.Table[models.Coupon]{Resource: "coupon",
	Derive: func(c *models.Coupon, now time.Time) { c.Derive(now) }}

// CouponFilter filters the coupon list.
type CouponFilter struct {
	Status       *models.CouponStatus        `query:"status" filter:"status,enum"`
	DiscountType *models.DiscountType        `query:"discount_type" filter:"discount_type,enum"`
	ApplicableTo *models.CouponApplicability `query:"applicable_to" filter:"applicable_to,enum"`
}
