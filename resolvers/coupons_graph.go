package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// Coupons, promotion codes and discounts are nodes loaded in batches; the
// list edges (Coupon.promotionCodes, Customer.discounts) load every
// parent's children in one statement.
var (
	couponLoader               = nodeLoader("coupon", func(r *Resolver) batch[*models.Coupon] { return r.Svc.Catalog.Coupons.ByIDs })
	promotionCodeLoader        = nodeLoader("promotionCode", func(r *Resolver) batch[*models.PromotionCode] { return r.Svc.Catalog.PromotionCodes.ByIDs })
	discountLoader             = nodeLoader("discount", func(r *Resolver) batch[*models.Discount] { return r.Svc.Catalog.Discounts.ByIDs })
	couponPromotionCodesLoader = loader("couponPromotionCodes", func(r *Resolver) batch[[]*models.PromotionCode] { return r.Svc.Catalog.PromotionCodes.OfCoupons })
	customerDiscountsLoader    = loader("customerDiscounts", func(r *Resolver) batch[[]*models.Discount] { return r.Svc.Catalog.Discounts.OfCustomers })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(productLoader, "product", func(c *models.Coupon) string { return idKey(c.ProductID) })
	_ = edge(couponPromotionCodesLoader, "promotionCodes", func(c *models.Coupon) string { return c.ID.String() })
	_ = edge(customerDiscountsLoader, "discounts", func(c *models.Customer) string { return c.ID.String() })
	_ = edge(couponLoader, "coupon", func(d *models.Discount) string { return d.CouponID.String() })
	_ = edge(promotionCodeLoader, "promotionCode", func(d *models.Discount) string { return idKey(d.PromotionCodeID) })
	_ = edge(customerLoader, "customer", func(d *models.Discount) string { return idKey(d.CustomerID) })
	_ = edge(accountLoader, "account", func(d *models.Discount) string { return idKey(d.AccountID) })
	_ = edge(couponLoader, "coupon", func(p *models.PromotionCode) string { return p.CouponID.String() })
	_ = edge(customerLoader, "customer", func(p *models.PromotionCode) string { return idKey(p.CustomerID) })
)

func coupons(ctx context.Context, r *Resolver, first *int, after *string, f *catalog.CouponFilter) (*model.CouponConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Catalog.Coupons.List, filterOf(f, same[catalog.CouponFilter]),
		first, after, couponLoader, func(cursor string, c *models.Coupon) *model.CouponEdge {
			return &model.CouponEdge{Cursor: cursor, Node: c}
		})
	return &model.CouponConnection{Edges: edges, PageInfo: info}, err
}

func promotionCodes(ctx context.Context, r *Resolver, first *int, after *string, f *model.PromotionCodeFilter) (*model.PromotionCodeConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Catalog.PromotionCodes.List, filterOf(f, func(g model.PromotionCodeFilter) catalog.PromotionCodeFilter { return catalog.PromotionCodeFilter(g) }),
		first, after, promotionCodeLoader, func(cursor string, c *models.PromotionCode) *model.PromotionCodeEdge {
			return &model.PromotionCodeEdge{Cursor: cursor, Node: c}
		})
	return &model.PromotionCodeConnection{Edges: edges, PageInfo: info}, err
}

func discounts(ctx context.Context, r *Resolver, first *int, after *string, f *model.DiscountFilter) (*model.DiscountConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Catalog.Discounts.List, filterOf(f, func(g model.DiscountFilter) catalog.DiscountFilter { return catalog.DiscountFilter(g) }),
		first, after, discountLoader, func(cursor string, d *models.Discount) *model.DiscountEdge {
			return &model.DiscountEdge{Cursor: cursor, Node: d}
		})
	return &model.DiscountConnection{Edges: edges, PageInfo: info}, err
}
