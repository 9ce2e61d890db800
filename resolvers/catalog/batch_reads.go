package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Batched reads for the GraphQL edges: one statement per batch of ids.

// DiscountsByIDs reads many discount records in one statement.
func (s *Service) DiscountsByIDs(ctx context.Context, idList []string) ([]*models.Discount, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "discount", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Discount, error) {
		var rows []*models.Discount
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("di.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Discount, len(rows))
		for _, r := range rows {
			r.Derive()
			found[r.ID] = r
		}
		return found, nil
	})
}

// PromotionCodesOfCoupons reads the promotion codes of many coupons in one
// statement, newest first (Coupon.promotionCodes).
func (s *Service) PromotionCodesOfCoupons(ctx context.Context, couponIDs []string) ([][]*models.PromotionCode, []error) {
	now := s.Clock.Now()
	return groupedRead(ctx, couponIDs, func(p *auth.Principal, want []uuid.UUID) ([]*models.PromotionCode, error) {
		var rows []*models.PromotionCode
		err := s.DB.Tenant(p.Scope).Select(&rows).Where("pc.coupon_id IN (?)", bun.In(want)).
			OrderExpr("pc.created DESC, pc.id DESC").Scan(ctx)
		for _, r := range rows {
			r.Derive(now)
		}
		return rows, err
	}, func(pc *models.PromotionCode) uuid.UUID { return pc.CouponID })
}

// DiscountsOfCustomers reads the discount records of many customers in
// one statement, newest first (Customer.discounts).
func (s *Service) DiscountsOfCustomers(ctx context.Context, customerIDs []string) ([][]*models.Discount, []error) {
	return groupedRead(ctx, customerIDs, func(p *auth.Principal, want []uuid.UUID) ([]*models.Discount, error) {
		var rows []*models.Discount
		err := s.DB.Tenant(p.Scope).Select(&rows).Where("di.customer_id IN (?)", bun.In(want)).
			OrderExpr("di.created DESC, di.id DESC").Scan(ctx)
		for _, r := range rows {
			r.Derive()
		}
		return rows, err
	}, func(d *models.Discount) uuid.UUID { return *d.CustomerID })
}

// groupedRead runs one read for many parent ids (secret key) and groups
// its rows by parent, in the order read; a parent without rows gets an
// empty list.
func groupedRead[T any](ctx context.Context, parentIDs []string, read func(*auth.Principal, []uuid.UUID) ([]T, error),
	parent func(T) uuid.UUID) ([][]T, []error) {
	out := make([][]T, len(parentIDs))
	errs := make([]error, len(parentIDs))
	fail := func(err error) ([][]T, []error) {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return fail(err)
	}
	var want []uuid.UUID
	for _, id := range parentIDs {
		if uid, ok := ids.Parse(id); ok {
			want = append(want, uid)
		}
	}
	var rows []T
	if len(want) > 0 {
		if rows, err = read(p, want); err != nil {
			return fail(err)
		}
	}
	by := map[uuid.UUID][]T{}
	for _, r := range rows {
		by[parent(r)] = append(by[parent(r)], r)
	}
	for i, id := range parentIDs {
		uid, _ := ids.Parse(id)
		if out[i] = by[uid]; out[i] == nil {
			out[i] = []T{}
		}
	}
	return out, errs
}
