package catalog

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PromotionCodes is the promotion code family: reads from the kit, and
// Create and Update (promotion_code_ops.go).
type PromotionCodes struct {
	op.Reader[models.PromotionCode, PromotionCodeFilter]
	// OfCoupons reads the codes of a batch of coupons in one statement,
	// newest first (Coupon.promotionCodes).
	OfCoupons op.Batch[[]*models.PromotionCode]
	svc       *Service
}

func newPromotionCodes(s *Service) *PromotionCodes {
	return &PromotionCodes{Reader: op.Read[models.PromotionCode, PromotionCodeFilter](s.Kit, promotionCodeTable),
		OfCoupons: (&op.Children[models.PromotionCode]{Table: promotionCodeTable, Parent: "coupon", Column: "coupon_id"}).Bind(s.Kit),
		svc:       s}
}

// promotionCodeTable reads codes with their derived members at the time of
// the read.
var promotionCodeTable = &op.Table[models.PromotionCode]{Resource: "promotion_code",
	Derive: func(pc *models.PromotionCode, now time.Time) { pc.Derive(now) }}

// PromotionCodeFilter filters the promotion code list. A coupon or a
// customer id that does not parse matches no code (an empty page, not an
// error).
type PromotionCodeFilter struct {
	CouponID             *string `query:"coupon_id" filter:"-"`
	Customer             *string `query:"customer" filter:"-"`
	Active               *bool   `query:"active" filter:"active"`
	FirstTimeTransaction *bool   `query:"first_time_transaction" filter:"first_time_transaction"`
}

// Apply adds the coupon's and the customer's conditions.
func (f PromotionCodeFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = whereIDOrNone(q, "coupon_id", f.CouponID)
	return whereIDOrNone(q, "customer_id", f.Customer)
}
