package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfCoupons reads one page of the discount records of each of many
// coupons in one statement (Coupon.discounts), filtered as REST's discount
// list is (the payer's customer or account).
func (ds *Discounts) PagesOfCoupons(ctx context.Context, couponIDs []string, f DiscountFilter,
	first *int, after *string) ([]op.Page[*models.Discount], []error) {
	return discountTable.PagesOf(ctx, ds.svc.Kit, "coupon_id", "coupon", couponIDs, f, first, after)
}

// PagesOfPromotionCodes is PagesOfCoupons for the records a promotion
// code redeemed (PromotionCode.discounts).
func (ds *Discounts) PagesOfPromotionCodes(ctx context.Context, codeIDs []string, f DiscountFilter,
	first *int, after *string) ([]op.Page[*models.Discount], []error) {
	return discountTable.PagesOf(ctx, ds.svc.Kit, "promotion_code_id", "promotion_code", codeIDs, f, first, after)
}
