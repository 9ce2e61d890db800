package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a coupon. Its name is unique per merchant and mode in
// any case (a unique index, so concurrent creates cannot share it).
func (cs *Coupons) Create(ctx context.Context, in *models.CreateCouponInput) (*models.Coupon, error) {
	var c *models.Coupon
	spec := op.Spec{Name: "coupon.create", Allow: secretOnly, Params: in,
		Check: func() (err error) { c, err = in.Build(); return err }}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Coupon, error) {
		if in.ProductID != nil {
			pr, err := productTable.Find(ctx, w, *in.ProductID)
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

// Update changes description, status (active/inactive) or
// max_redemptions (never below times_redeemed).
func (cs *Coupons) Update(ctx context.Context, id string, in *models.UpdateCouponInput) (*models.Coupon, error) {
	spec := op.Spec{Name: "coupon.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Check: in.Validate}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Coupon, error) {
		c, err := couponTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
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
			c.Status = models.CouponStatus(*in.Status)
		}
		if in.MaxRedemptions != nil {
			if *in.MaxRedemptions < c.TimesRedeemed {
				return nil, apierr.FieldError("max_redemptions", "must not be below times_redeemed")
			}
			v := *in.MaxRedemptions
			c.MaxRedemptions = &v
		}
		c.Derive(now)
		// The event's object carries the new updated; a no-op keeps the old one.
		previous := c.Updated
		c.Updated = models.At(now)
		after, prev, err := events.RenderChange(before, c)
		if err != nil || prev == nil {
			c.Updated = previous
			return c, err
		}
		if _, err := w.Tx.Update(c).Column("description", "status", "max_redemptions", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		w.Emit(EventCouponUpdated, c.ID, after, prev)
		return c, nil
	})
}
