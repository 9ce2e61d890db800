package catalog

import (
	"context"
	"database/sql"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a code for a coupon. Codes are normalised to upper case
// and unique per merchant and mode (a unique index).
func (pcs *PromotionCodes) Create(ctx context.Context, in *models.PromotionCodeInput) (*models.PromotionCode, error) {
	var exp *time.Time
	spec := op.Spec{Name: "promotion_code.create", Allow: secretOnly, Params: in, Check: func() error {
		var f *apierr.Fields
		exp, f = in.Validate(true)
		return f.Err()
	}}
	return op.Write(ctx, pcs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.PromotionCode, error) {
		c, err := couponTable.Find(ctx, w, *in.CouponID)
		if err != nil {
			return nil, apierr.FieldError("coupon_id", "is not a coupon of this merchant and mode")
		}
		now := w.Now()
		pc := &models.PromotionCode{ID: ids.New(now), CouponID: c.ID, Active: true, MinimumAmountCurrency: "USD",
			Created: models.At(now), Updated: models.At(now)}
		in.ApplyTo(pc, exp)
		if err := metadataFits(pc.Metadata); err != nil {
			return nil, err
		}
		if err := resolveCustomer(ctx, w, pc, in); err != nil {
			return nil, err
		}
		if err := insertOrTaken(ctx, w.Tx.Insert(pc).Exec); err != nil {
			return nil, err
		}
		pc.Derive(now)
		if err := w.EmitObject(EventPromotionCodeCreated, pc.ID, pc); err != nil {
			return nil, err
		}
		return pc, nil
	})
}

// Update changes a code; customer, expires_at and max_redemptions sent
// as null remove the restriction. The input is checked before the write;
// what depends on the code (max_redemptions against times_redeemed), on
// the locked row.
func (pcs *PromotionCodes) Update(ctx context.Context, id string, in *models.PromotionCodeInput) (*models.PromotionCode, error) {
	var exp *time.Time
	spec := op.Spec{Name: "promotion_code.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Check: func() error {
			var f *apierr.Fields
			exp, f = in.Validate(false)
			return f.Err()
		}}
	return op.Write(ctx, pcs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.PromotionCode, error) {
		pc, err := promotionCodeTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if in.MaxRedemptions != nil && *in.MaxRedemptions < pc.TimesRedeemed {
			return nil, apierr.FieldError("max_redemptions", "must not be below times_redeemed")
		}
		now := w.Now()
		pc.Derive(now)
		before, err := events.Render(pc)
		if err != nil {
			return nil, err
		}
		in.ApplyTo(pc, exp)
		if err := metadataFits(pc.Metadata); err != nil {
			return nil, err
		}
		if err := resolveCustomer(ctx, w, pc, in); err != nil {
			return nil, err
		}
		pc.Derive(now)
		// The event's object carries the new updated; a no-op keeps the old one.
		previous := pc.Updated
		pc.Updated = models.At(now)
		after, prev, err := events.RenderChange(before, pc)
		if err != nil || prev == nil {
			pc.Updated = previous
			return pc, err
		}
		if err := insertOrTaken(ctx, w.Tx.Update(pc).Column("code", "customer_id", "active", "first_time_transaction",
			"max_redemptions", "max_customer_redemptions", "minimum_amount_cents", "minimum_amount_currency",
			"expires_at", "metadata", "updated").WherePK().Exec); err != nil {
			return nil, err
		}
		w.Emit(EventPromotionCodeUpdated, pc.ID, after, prev)
		return pc, nil
	})
}

// resolveCustomer locks the customer a code is restricted to (a deleted
// one is refused like an unknown one).
func resolveCustomer(ctx context.Context, w *op.W, pc *models.PromotionCode, in *models.PromotionCodeInput) error {
	if in.Customer == nil {
		return nil
	}
	c, err := customerRows.Lock(ctx, w, *in.Customer, op.LockUpdate)
	if err != nil || c.IsDeleted() {
		return apierr.FieldError("customer", "is not a customer of this merchant and mode")
	}
	pc.CustomerID = &c.ID
	return nil
}

// insertOrTaken runs a write and turns the code's unique index refusal
// into the validation error a pre-check would give.
func insertOrTaken(ctx context.Context, exec func(context.Context, ...any) (sql.Result, error)) error {
	if _, err := exec(ctx); err != nil {
		if name, ok := store.UniqueViolation(err); ok && name == "promotion_codes_code_key" {
			return apierr.FieldError("code", "has already been taken (codes are compared in any case)")
		}
		return err
	}
	return nil
}
