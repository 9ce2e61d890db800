package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Coupon.discounts and PromotionCode.discounts are page edges: the
// discount records of every coupon (or code) of a level in one statement
// per distinct set of arguments, filtered as REST's discount list.
var (
	discountPagesOfCouponLoader = loader("discountPagesOfCoupon", func(r *Resolver) batch[*op.Page[*models.Discount]] {
		return pagesOf(func(ctx context.Context, coupons []string, a discountPageArgs) ([]op.Page[*models.Discount], []error) {
			return r.Svc.Catalog.Discounts.PagesOfCoupons(ctx, coupons, a.filter(), a.First, a.After)
		})
	})
	discountPagesOfPromotionCodeLoader = loader("discountPagesOfPromotionCode", func(r *Resolver) batch[*op.Page[*models.Discount]] {
		return pagesOf(func(ctx context.Context, codes []string, a discountPageArgs) ([]op.Page[*models.Discount], []error) {
			return r.Svc.Catalog.Discounts.PagesOfPromotionCodes(ctx, codes, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(discountPagesOfCouponLoader, "discounts", func(c *models.Coupon) string { return c.ID.String() })
	_ = pageEdge(discountPagesOfPromotionCodeLoader, "discounts", func(c *models.PromotionCode) string { return c.ID.String() })
)

// discountPageArgs are the arguments of Coupon.discounts and
// PromotionCode.discounts.
type discountPageArgs struct {
	First      *int    `json:"first"`
	After      *string `json:"after"`
	CustomerID *string `json:"customerId"`
	AccountID  *string `json:"accountId"`
}

// filter is REST's discount list filter of the arguments.
func (a discountPageArgs) filter() catalog.DiscountFilter {
	return catalog.DiscountFilter{CustomerID: a.CustomerID, AccountID: a.AccountID}
}

// discountPageEdge maps a discount record onto its connection edge.
func discountPageEdge(cursor string, d *models.Discount) *model.DiscountEdge {
	return &model.DiscountEdge{Cursor: cursor, Node: d}
}
