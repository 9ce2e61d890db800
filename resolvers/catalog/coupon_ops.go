package catalog

import (
	"context"
	"strings"

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
			return nil, nameTaken(err)
		}
		c.Derive(now)
		if err := w.EmitObject(EventCouponCreated, c.ID, c); err != nil {
			return nil, err
		}
		return c, nil
	})
}

// Update changes name (unique, like a created one's), description,
// status (active/inactive), max_redemptions (never below times_redeemed)
// or metadata (merged).
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
		if in.Name != nil {
			c.Name = strings.TrimSpace(*in.Name)
		}
		setText(&c.Description, in.Description)
		if in.Metadata != nil {
			c.Metadata = models.MergeMetadata(c.Metadata, in.Metadata)
			if err := metadataFits(c.Metadata); err != nil {
				return nil, err
			}
		}
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
		// The event's object carries the new updated; a no-op keeps the old one.
		previous := c.Updated
		c.Updated = models.At(now)
		after, prev, err := events.RenderChange(before, c)
		if err != nil || prev == nil {
			c.Updated = previous
			return c, err
		}
		if _, err := w.Tx.Update(c).Column("name", "description", "status", "max_redemptions", "metadata", "updated").
			WherePK().Exec(ctx); err != nil {
			return nil, nameTaken(err)
		}
		w.Emit(EventCouponUpdated, c.ID, after, prev)
		return c, nil
	})
}

// nameTaken is the field error of a write that hit another coupon's name
// (the unique index, so concurrent writes cannot share it), or err.
func nameTaken(err error) error {
	if name, ok := store.UniqueViolation(err); ok && name == "coupons_name_key" {
		return apierr.FieldError("name", "has already been taken by another coupon")
	}
	return err
}

// metadataFits reports merged metadata over the limit of keys.
func metadataFits(m models.Metadata) error {
	var f apierr.Fields
	models.CheckMetadataSize(&f, "metadata", m)
	return f.Err()
}
