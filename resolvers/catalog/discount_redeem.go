package catalog

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Redemption is one application of promotion codes to something billed.
type Redemption struct {
	// Codes as the payer typed them, in the order they stack.
	Codes       []string
	AmountCents int64
	Currency    string
	// The payer: a customer or an account (or neither, for codes without
	// payer rules).
	CustomerID, AccountID *uuid.UUID
	// What is discounted ("Transfer", "ChargeIntent", "Invoice") and its id.
	DiscountableType string
	DiscountableID   *uuid.UUID
	ProductIDs       []uuid.UUID
	// FirstTransaction says whether this is the payer's first transaction;
	// nil judges it from the payer's discount history.
	FirstTransaction *bool
}

// Redeem applies promotion codes inside the caller's write (w): the one
// function every flow that applies a discount (transfers, charge intents,
// invoices) calls. It locks the codes and their coupons (in id order),
// judges every code as validation does, and refuses the whole redemption
// (422 promotion_code_invalid, naming the first refused code and its
// reason) unless all apply; then it counts the redemptions on the codes
// and coupons and writes one discount per code, announced as
// discount.created. Limits are enforced under the row locks, and the
// database's check constraints refuse any count past a limit, so N
// concurrent redemptions of a code limited to k redeem exactly k.
func (ds *Discounts) Redeem(ctx context.Context, w *op.W, r Redemption) ([]*models.Discount, error) {
	if len(r.Codes) == 0 {
		return []*models.Discount{}, nil
	}
	if r.AmountCents < 0 {
		return nil, apierr.FieldError("amount_cents", "must be at least 0")
	}
	byCode, coupons, err := loadCodes(ctx, w.Tx, normalizedCodes(r.Codes), true)
	if err != nil {
		return nil, err
	}
	o := order{amount: r.AmountCents, customerID: r.CustomerID, accountID: r.AccountID, productIDs: r.ProductIDs,
		firstTransaction: r.FirstTransaction}
	history, hasHistory, err := payerHistory(ctx, w.Tx, o)
	if err != nil {
		return nil, err
	}
	now := w.Now()
	results, _ := evaluate(now, r.Codes, o, byCode, coupons, history, hasHistory)
	for _, e := range results {
		if !e.result.Valid {
			return nil, apierr.Rule("promotion_code_invalid", "Promotion code "+e.result.Code+" cannot be applied: "+
				*e.result.Reason, "promotion_codes", map[string]any{"code": e.result.Code, "reason": *e.result.Reason})
		}
	}
	currency := strings.ToUpper(r.Currency)
	if currency == "" {
		currency = "USD"
	}
	out := make([]*models.Discount, len(results))
	codeIDs := make([]uuid.UUID, len(results))
	couponUses := map[uuid.UUID]int{}
	for i, e := range results {
		out[i] = &models.Discount{ID: ids.New(now), CouponID: e.coupon.ID, PromotionCodeID: &e.code.ID,
			CustomerID: r.CustomerID, AccountID: r.AccountID, DiscountableType: r.DiscountableType,
			DiscountableID: r.DiscountableID, ApplicationOrder: *e.result.ApplicationOrder,
			DiscountAmountCents: e.result.DiscountAmountCents, DiscountAmountCurrency: currency,
			Created: models.At(now), Updated: models.At(now)}
		codeIDs[i] = e.code.ID
		couponUses[e.coupon.ID]++
	}
	if _, err := w.Tx.Update((*models.PromotionCode)(nil)).Set("times_redeemed = times_redeemed + 1").
		Set("updated = ?", now).Where("pc.id IN (?)", bun.In(codeIDs)).Exec(ctx); err != nil {
		return nil, err
	}
	for couponID, n := range couponUses {
		if _, err := w.Tx.Update((*models.Coupon)(nil)).Set("times_redeemed = times_redeemed + ?", n).
			Set("updated = ?", now).Where("co.id = ?", couponID).Exec(ctx); err != nil {
			return nil, err
		}
	}
	if _, err := store.InsertModel(w.Tx, out).Exec(ctx); err != nil {
		return nil, err
	}
	for _, d := range out {
		d.Derive()
		if err := w.EmitObject(EventDiscountCreated, d.ID, d); err != nil {
			return nil, err
		}
	}
	return out, nil
}
