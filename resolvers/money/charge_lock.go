package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Refunds and disputes change a charge under its row lock. Every write
// that locks both a transfer and its charge takes the transfer's lock
// first (capture does), so these never wait for each other in a cycle.

// lockChargeByID locks the charge id and, first, the transfer it was made
// for (nil for a charge intent's charge). param names the input at fault
// when the charge is unknown.
func lockChargeByID(ctx context.Context, w *op.W, id uuid.UUID, param string) (*models.Charge, *models.Transfer, error) {
	missing := func() error {
		e := apierr.NotFound("charge", id.String())
		e.Param = param
		return e
	}
	var parent struct {
		TransferID *uuid.UUID `bun:"transfer_id"`
	}
	if err := w.Tx.Select((*models.Charge)(nil)).Column("transfer_id").Where("ch.id = ?", id).Scan(ctx, &parent); err != nil {
		if store.IsNoRows(err) {
			return nil, nil, missing()
		}
		return nil, nil, err
	}
	var t *models.Transfer
	if parent.TransferID != nil {
		var err error
		if t, err = transferTable.Lock(ctx, w, parent.TransferID.String(), op.LockUpdate); err != nil {
			return nil, nil, err
		}
	}
	ch, err := chargeTable.Lock(ctx, w, id.String(), op.LockUpdate)
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		return nil, nil, missing()
	}
	if err != nil {
		return nil, nil, err
	}
	return ch, t, nil
}

// lockChargeOfIntent locks the charge a refund of the charge intent acts
// on: its latest succeeded charge (a charge intent may have been charged
// more than once, its earlier attempts declined). A charge intent with no
// charge at all is unknown (404 on charge_intent); one whose charges all
// failed has nothing to refund (422 invalid_state).
func lockChargeOfIntent(ctx context.Context, w *op.W, intentID uuid.UUID) (*models.Charge, error) {
	ch := new(models.Charge)
	err := chargeTable.Select(w.Tx, w.P, ch).Where("?TableAlias.charge_intent_id = ?", intentID).
		OrderExpr("?TableAlias.status = ? DESC, ?TableAlias.created DESC, ?TableAlias.id DESC", models.ChargeSucceeded).Limit(1).
		For("UPDATE OF ?TableAlias").Scan(ctx)
	if store.IsNoRows(err) {
		e := apierr.NotFound("charge_intent", intentID.String())
		e.Param = "charge_intent"
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	ch.Derive()
	if ch.Status != models.ChargeSucceeded {
		return nil, apierr.InvalidState("The charge intent has no succeeded charge to refund")
	}
	return ch, nil
}

// clearingOf is the clearing party a charge's money sits in.
func clearingOf(ch *models.Charge) string {
	if ch.PaymentMethodDetails != nil && ch.PaymentMethodDetails.Type == models.PaymentMethodACH {
		return PartyACHClearing
	}
	return PartyCardClearing
}

// saveCharge writes the columns refunds and disputes change.
func saveCharge(ctx context.Context, w *op.W, ch *models.Charge) error {
	ch.Updated = models.At(w.Now())
	ch.Derive()
	_, err := w.Tx.Update(ch).Column("amount_refunded", "refund_reason", "disputed", "updated").WherePK().Exec(ctx)
	return err
}
