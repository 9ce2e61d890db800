package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// Coupons, promotion codes and discounts are nodes loaded in batches; the
// list edges (Coupon.promotionCodes, Customer.discounts) load every
// parent's children in one statement.
var (
	couponLoader = loader("coupon", func(r *Resolver) loaders.Fetch[*models.Coupon] {
		return r.Svc.Catalog.CouponsByIDs
	})
	_                   = node(couponLoader)
	promotionCodeLoader = loader("promotionCode", func(r *Resolver) loaders.Fetch[*models.PromotionCode] {
		return r.Svc.Catalog.PromotionCodesByIDs
	})
	_              = node(promotionCodeLoader)
	discountLoader = loader("discount", func(r *Resolver) loaders.Fetch[*models.Discount] {
		return r.Svc.Catalog.DiscountsByIDs
	})
	_                          = node(discountLoader)
	couponPromotionCodesLoader = loader("couponPromotionCodes", func(r *Resolver) loaders.Fetch[[]*models.PromotionCode] {
		return r.Svc.Catalog.PromotionCodesOfCoupons
	})
	customerDiscountsLoader = loader("customerDiscounts", func(r *Resolver) loaders.Fetch[[]*models.Discount] {
		return r.Svc.Catalog.DiscountsOfCustomers
	})
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

func coupons(ctx context.Context, r *Resolver, first *int, after *string, f *model.CouponFilter) (*model.CouponConnection, error) {
	filter := catalog.CouponFilter{}
	if f != nil {
		filter = catalog.CouponFilter{Status: f.Status, DiscountType: f.DiscountType, ApplicableTo: f.ApplicableTo}
	}
	page, err := r.Svc.Catalog.ListCoupons(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, c := range page.Items {
		couponLoader.Prime(ctx, c.ID.String(), c)
	}
	edges, info := connect(page, func(cursor string, c *models.Coupon) *model.CouponEdge {
		return &model.CouponEdge{Cursor: cursor, Node: c}
	})
	return &model.CouponConnection{Edges: edges, PageInfo: info}, nil
}

func promotionCodes(ctx context.Context, r *Resolver, first *int, after *string, f *model.PromotionCodeFilter) (*model.PromotionCodeConnection, error) {
	filter := catalog.PromotionCodeFilter{}
	if f != nil {
		filter = catalog.PromotionCodeFilter{CouponID: f.CouponID, Customer: f.Customer, Active: f.Active,
			FirstTimeTransaction: f.FirstTimeTransaction}
	}
	page, err := r.Svc.Catalog.ListPromotionCodes(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, c := range page.Items {
		promotionCodeLoader.Prime(ctx, c.ID.String(), c)
	}
	edges, info := connect(page, func(cursor string, c *models.PromotionCode) *model.PromotionCodeEdge {
		return &model.PromotionCodeEdge{Cursor: cursor, Node: c}
	})
	return &model.PromotionCodeConnection{Edges: edges, PageInfo: info}, nil
}

func discounts(ctx context.Context, r *Resolver, first *int, after *string, f *model.DiscountFilter) (*model.DiscountConnection, error) {
	filter := catalog.DiscountFilter{}
	if f != nil {
		filter = catalog.DiscountFilter{CustomerID: f.CustomerID, AccountID: f.AccountID}
	}
	page, err := r.Svc.Catalog.ListDiscounts(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	edges, info := connect(page, func(cursor string, d *models.Discount) *model.DiscountEdge {
		return &model.DiscountEdge{Cursor: cursor, Node: d}
	})
	return &model.DiscountConnection{Edges: edges, PageInfo: info}, nil
}
