package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CreateCoupon creates a coupon. Its name is unique per merchant and mode
// in any case (a unique index, so concurrent creates cannot share it).
func (s *Service) CreateCoupon(ctx context.Context, in *models.CreateCouponInput) (*models.Coupon, error) {
	spec := op.Spec{Name: "coupon.create", Allow: secretOnly, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Coupon, error) {
		c, err := in.Build()
		if err != nil {
			return nil, err
		}
		if in.ProductID != nil {
			pr, err := selectProduct(ctx, w.Tx, *in.ProductID, false)
			if err != nil {
				return nil, apierr.FieldError("product_id", "is not a product of this merchant and mode")
			}
			c.ProductID = &pr.ID
		}
		now := w.Now()
		c.ID, c.Created, c.Updated = ids.New(now), models.At(now), models.At(now)
		if _, err := w.Tx.Insert(c).Exec(ctx); err != nil {
			if name, ok := store.UniqueViolation(err); ok && name == "coupons_name_key" {
				return nil, apierr.FieldError("name", "has already been taken by another coupon")
			}
			return nil, err
		}
		c.Derive(now)
		raw, err := events.Render(c)
		if err != nil {
			return nil, err
		}
		w.Emit(EventCouponCreated, c.ID, raw, nil)
		return c, nil
	})
}

// UpdateCoupon changes description, status (active/inactive) or
// max_redemptions (never below times_redeemed).
func (s *Service) UpdateCoupon(ctx context.Context, id string, in *models.UpdateCouponInput) (*models.Coupon, error) {
	spec := op.Spec{Name: "coupon.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Coupon, error) {
		c, err := selectCoupon(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		if err := in.Validate(); err != nil {
			return nil, err
		}
		now := w.Now()
		c.Derive(now)
		before, err := events.Render(c)
		if err != nil {
			return nil, err
		}
		setText(&c.Description, in.Description)
		if in.Status != nil {
			c.Status = *in.Status
		}
		if in.MaxRedemptions != nil {
			if *in.MaxRedemptions < c.TimesRedeemed {
				return nil, apierr.FieldError("max_redemptions", "must not be below times_redeemed")
			}
			v := *in.MaxRedemptions
			c.MaxRedemptions = &v
		}
		c.Derive(now)
		after, err := events.Render(c)
		if err != nil {
			return nil, err
		}
		prev, err := events.PreviousAttributes(before, after)
		if err != nil || prev == nil {
			return c, err
		}
		c.Updated = models.At(now)
		if _, err := w.Tx.Update(c).Column("description", "status", "max_redemptions", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		w.Emit(EventCouponUpdated, c.ID, after, prev)
		return c, nil
	})
}

// GetCoupon returns one coupon.
func (s *Service) GetCoupon(ctx context.Context, id string) (*models.Coupon, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	c, err := selectCoupon(ctx, s.DB.Tenant(p.Scope), id, false)
	if err != nil {
		return nil, err
	}
	c.Derive(s.Clock.Now())
	return c, nil
}

// CouponsByIDs reads many coupons in one statement.
func (s *Service) CouponsByIDs(ctx context.Context, idList []string) ([]*models.Coupon, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "coupon", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Coupon, error) {
		var rows []*models.Coupon
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("co.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		now := s.Clock.Now()
		found := make(map[uuid.UUID]*models.Coupon, len(rows))
		for _, r := range rows {
			r.Derive(now)
			found[r.ID] = r
		}
		return found, nil
	})
}

// CouponFilter filters the coupon list.
type CouponFilter struct {
	Status, DiscountType, ApplicableTo *string
}

// ListCoupons is the one list of coupons, newest first.
func (s *Service) ListCoupons(ctx context.Context, f CouponFilter, lp op.ListParams) (op.Page[*models.Coupon], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Coupon]{}, err
	}
	var fields apierr.Fields
	checkEnum(&fields, "status", f.Status, "active", "inactive", "archived", "deleted")
	checkEnum(&fields, "discount_type", f.DiscountType, "percentage", "fixed_amount")
	checkEnum(&fields, "applicable_to", f.ApplicableTo, "all_products", "specific_products")
	if err := fields.Err(); err != nil {
		return op.Page[*models.Coupon]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.Coupon)(nil))
	if f.Status != nil {
		q = q.Where("co.status = ?", *f.Status)
	}
	if f.DiscountType != nil {
		q = q.Where("co.discount_type = ?", *f.DiscountType)
	}
	if f.ApplicableTo != nil {
		q = q.Where("co.applicable_to = ?", *f.ApplicableTo)
	}
	page, err := op.List(ctx, q, "co", lp, func(c *models.Coupon) op.Position {
		return op.Position{Created: c.Created.Time, ID: c.ID}
	})
	now := s.Clock.Now()
	for _, c := range page.Items {
		c.Derive(now)
	}
	return page, err
}

func selectCoupon(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.Coupon, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("coupon", id)
	}
	c := new(models.Coupon)
	q := t.Select(c).Where("co.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("coupon", id)
		}
		return nil, err
	}
	return c, nil
}

// checkEnum reports a value outside allowed.
func checkEnum(f *apierr.Fields, path string, v *string, allowed ...string) {
	if v == nil {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	f.Add(path, "must be one of the documented values")
}
