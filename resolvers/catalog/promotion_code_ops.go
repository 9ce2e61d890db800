package catalog

import (
	"context"
	"database/sql"

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

// CreatePromotionCode creates a code for a coupon. Codes are normalised to
// upper case and unique per merchant and mode (a unique index).
func (s *Service) CreatePromotionCode(ctx context.Context, in *models.PromotionCodeInput) (*models.PromotionCode, error) {
	spec := op.Spec{Name: "promotion_code.create", Allow: secretOnly, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.PromotionCode, error) {
		exp, f := in.Validate(true)
		if err := f.Err(); err != nil {
			return nil, err
		}
		c, err := selectCoupon(ctx, w.Tx, *in.CouponID, false)
		if err != nil {
			return nil, apierr.FieldError("coupon_id", "is not a coupon of this merchant and mode")
		}
		now := w.Now()
		pc := &models.PromotionCode{ID: ids.New(now), CouponID: c.ID, Active: true, MinimumAmountCurrency: "USD",
			Created: models.At(now), Updated: models.At(now)}
		in.ApplyTo(pc, exp)
		if err := s.resolveCustomer(ctx, w, pc, in); err != nil {
			return nil, err
		}
		if err := insertOrTaken(ctx, w.Tx.Insert(pc).Exec); err != nil {
			return nil, err
		}
		pc.Derive(now)
		raw, err := events.Render(pc)
		if err != nil {
			return nil, err
		}
		w.Emit(EventPromotionCodeCreated, pc.ID, raw, nil)
		return pc, nil
	})
}

// UpdatePromotionCode changes a code; customer, expires_at and
// max_redemptions sent as null remove the restriction.
func (s *Service) UpdatePromotionCode(ctx context.Context, id string, in *models.PromotionCodeInput) (*models.PromotionCode, error) {
	spec := op.Spec{Name: "promotion_code.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.PromotionCode, error) {
		pc, err := selectPromotionCode(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		exp, f := in.Validate(false)
		if in.MaxRedemptions != nil && *in.MaxRedemptions < pc.TimesRedeemed {
			f.Add("max_redemptions", "must not be below times_redeemed")
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		now := w.Now()
		pc.Derive(now)
		before, err := events.Render(pc)
		if err != nil {
			return nil, err
		}
		in.ApplyTo(pc, exp)
		if err := s.resolveCustomer(ctx, w, pc, in); err != nil {
			return nil, err
		}
		pc.Derive(now)
		after, err := events.Render(pc)
		if err != nil {
			return nil, err
		}
		prev, err := events.PreviousAttributes(before, after)
		if err != nil || prev == nil {
			return pc, err
		}
		pc.Updated = models.At(now)
		if err := insertOrTaken(ctx, w.Tx.Update(pc).Column("code", "customer_id", "active", "first_time_transaction",
			"max_redemptions", "max_customer_redemptions", "minimum_amount_cents", "minimum_amount_currency",
			"expires_at", "updated").WherePK().Exec); err != nil {
			return nil, err
		}
		w.Emit(EventPromotionCodeUpdated, pc.ID, after, prev)
		return pc, nil
	})
}

func (s *Service) resolveCustomer(ctx context.Context, w *op.W, pc *models.PromotionCode, in *models.PromotionCodeInput) error {
	if in.Customer == nil {
		return nil
	}
	c, err := lockCustomer(ctx, w.Tx, *in.Customer)
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

// GetPromotionCode returns one promotion code.
func (s *Service) GetPromotionCode(ctx context.Context, id string) (*models.PromotionCode, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	pc, err := selectPromotionCode(ctx, s.DB.Tenant(p.Scope), id, false)
	if err != nil {
		return nil, err
	}
	pc.Derive(s.Clock.Now())
	return pc, nil
}

// PromotionCodesByIDs reads many promotion codes in one statement.
func (s *Service) PromotionCodesByIDs(ctx context.Context, idList []string) ([]*models.PromotionCode, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "promotion_code", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.PromotionCode, error) {
		var rows []*models.PromotionCode
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("pc.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		now := s.Clock.Now()
		found := make(map[uuid.UUID]*models.PromotionCode, len(rows))
		for _, r := range rows {
			r.Derive(now)
			found[r.ID] = r
		}
		return found, nil
	})
}

// PromotionCodeFilter filters the promotion code list.
type PromotionCodeFilter struct {
	CouponID, Customer           *string
	Active, FirstTimeTransaction *bool
}

// ListPromotionCodes is the one list of promotion codes, newest first.
func (s *Service) ListPromotionCodes(ctx context.Context, f PromotionCodeFilter, lp op.ListParams) (op.Page[*models.PromotionCode], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.PromotionCode]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.PromotionCode)(nil))
	for col, v := range map[string]*string{"coupon_id": f.CouponID, "customer_id": f.Customer} {
		if v == nil {
			continue
		}
		uid, ok := ids.Parse(*v)
		if !ok {
			return op.Page[*models.PromotionCode]{Items: []*models.PromotionCode{}, Params: lp.PageParams.Normalized()}, nil
		}
		q = q.Where("pc.? = ?", bun.Ident(col), uid)
	}
	if f.Active != nil {
		q = q.Where("pc.active = ?", *f.Active)
	}
	if f.FirstTimeTransaction != nil {
		q = q.Where("pc.first_time_transaction = ?", *f.FirstTimeTransaction)
	}
	page, err := op.List(ctx, q, "pc", lp, func(c *models.PromotionCode) op.Position {
		return op.Position{Created: c.Created.Time, ID: c.ID}
	})
	now := s.Clock.Now()
	for _, c := range page.Items {
		c.Derive(now)
	}
	return page, err
}

func selectPromotionCode(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.PromotionCode, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("promotion_code", id)
	}
	pc := new(models.PromotionCode)
	q := t.Select(pc).Where("pc.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("promotion_code", id)
		}
		return nil, err
	}
	return pc, nil
}
