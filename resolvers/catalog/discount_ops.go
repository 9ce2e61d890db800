package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// validators may validate codes: the secret key, and the publishable key
// for client-side checkout (spec doc 2 §4.9).
var validators = []auth.Kind{auth.SecretKey, auth.PublishableKey}

// maxCodes bounds the codes of one validation.
const maxCodes = 20

// Validate judges promotion codes against an order without
// redeeming them: each code's result with its reason, the stacking order
// of the valid ones and what each takes off, and the total. It reads
// (nothing changes), so it is not idempotent-keyed.
func (ds *Discounts) Validate(ctx context.Context, in *models.ValidateDiscountsInput) (*models.DiscountValidation, error) {
	s := ds.svc
	p, err := auth.Require(ctx, validators...)
	if err != nil {
		return nil, err
	}
	var f apierr.Fields
	if in.AmountCents == nil {
		f.Add("amount_cents", "is required")
	} else if *in.AmountCents < 0 {
		f.Add("amount_cents", "must be at least 0")
	} else if *in.AmountCents > models.MaxAmount {
		f.Add("amount_cents", models.ProblemAmount)
	}
	switch {
	case in.PromotionCodes == nil:
		f.Add("promotion_codes", "is required")
	case len(in.PromotionCodes) > maxCodes:
		f.Addf("promotion_codes", "must hold at most %d codes", maxCodes)
	}
	for i, c := range in.PromotionCodes {
		if len(c) > 64 {
			f.Addf("promotion_codes", "code %d is longer than 64 characters", i)
		}
	}
	if in.CustomerID != nil && in.AccountID != nil {
		f.Add("customer_id", "cannot be given with account_id")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	t := s.DB.Tenant(p.Scope)
	o := order{amount: *in.AmountCents}
	if in.CustomerID != nil {
		uid, err := existing(ctx, t, (*models.Customer)(nil), "cu", "customer_id", *in.CustomerID)
		if err != nil {
			return nil, err
		}
		o.customerID = &uid
	}
	if in.AccountID != nil {
		uid, err := existing(ctx, t, (*models.Account)(nil), "a", "account_id", *in.AccountID)
		if err != nil {
			return nil, err
		}
		o.accountID = &uid
	}
	for _, id := range in.ProductIDs {
		if uid, ok := ids.Parse(id); ok {
			o.productIDs = append(o.productIDs, uid)
		}
	}
	byCode, coupons, err := loadCodes(ctx, t, normalizedCodes(in.PromotionCodes), false)
	if err != nil {
		return nil, err
	}
	history, hasHistory, err := payerHistory(ctx, t, o)
	if err != nil {
		return nil, err
	}
	results, total := evaluate(s.Clock.Now(), in.PromotionCodes, o, byCode, coupons, history, hasHistory)
	out := &models.DiscountValidation{ValidationResult: make([]*models.CodeValidation, len(results)), TotalDiscountAmountCents: total}
	for i, e := range results {
		out.ValidationResult[i] = e.result
	}
	return out, nil
}

// existing answers a payer's id, or 404 naming the parameter.
func existing(ctx context.Context, t *store.Tenant, model any, alias, param, id string) (uuid.UUID, error) {
	missing := apierr.NotFound(param[:len(param)-3], id)
	missing.Param = param
	uid, ok := ids.Parse(id)
	if !ok {
		return uuid.Nil, missing
	}
	found, err := t.Select(model).Where("?.id = ?", bun.Ident(alias), uid).Exists(ctx)
	if err != nil {
		return uuid.Nil, err
	}
	if !found {
		return uuid.Nil, missing
	}
	return uid, nil
}
