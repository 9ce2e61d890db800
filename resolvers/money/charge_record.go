package money

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// chargeOfTransfer is the charge the processor's answer makes for
// transfer t, charged on pm: approved (succeeded, nothing captured yet)
// unless failureCode is set (failed, with the decline's message and
// category). Approved charges carry the sandbox acquirer's reference
// number and authorization code, derived from the charge id so that they
// are stable and unique. The transfer names the charge (latest_charge).
func chargeOfTransfer(w *op.W, t *models.Transfer, pm *models.PaymentMethod, failureCode *string) *models.Charge {
	now := models.At(w.Now())
	ch := &models.Charge{ID: ids.New(w.Now()), Amount: t.Amount, Currency: t.Currency, Status: models.ChargeSucceeded,
		Description: t.Description, PaymentMethodID: pm.ID, PaymentMethodDetails: pm, AccountID: &t.AccountID,
		TransferID: &t.ID, Metadata: t.Metadata, Created: now, Updated: now}
	ch.SetScope(w.Tx.Scope())
	if failureCode != nil {
		ch.Status, ch.FailureCode, ch.FailureMessage, ch.FailureCategory = models.ChargeFailed, failureCode,
			t.FailureMessage, t.FailureReason
	} else {
		arn, auth := acquirerCodes(ch.ID)
		ch.AcquirerReferenceNumber, ch.AuthorizationCode = &arn, &auth
	}
	ch.Derive()
	t.LatestCharge = &ch.ID
	return ch
}

// acquirerCodes are the sandbox acquirer's 23-digit reference number and
// 6-character authorization code of a charge.
func acquirerCodes(id uuid.UUID) (arn, auth string) {
	sum := sha256.Sum256(id[:])
	a, b := binary.BigEndian.Uint64(sum[0:8]), binary.BigEndian.Uint64(sum[8:16])
	return fmt.Sprintf("7%011d%011d", a%100_000_000_000, b%100_000_000_000), fmt.Sprintf("%06d", binary.BigEndian.Uint32(sum[16:20])%1_000_000)
}

// insertCharge writes a new charge.
func insertCharge(ctx context.Context, w *op.W, ch *models.Charge) error {
	_, err := w.Tx.Insert(ch).Exec(ctx)
	return err
}

// captureCharge records that amount of charge ch was captured with net
// for the payee. A charge the same write has not stored yet (an automatic
// capture) is inserted captured; a stored one (a manual capture) is
// updated: one statement either way.
func captureCharge(ctx context.Context, w *op.W, ch *models.Charge, amount, net int64, stored bool) error {
	ch.AmountCaptured, ch.Captured, ch.NetAmount, ch.Updated = amount, true, net, models.At(w.Now())
	ch.Derive()
	if !stored {
		return insertCharge(ctx, w, ch)
	}
	_, err := w.Tx.Update(ch).Column("amount_captured", "captured", "net_amount", "disputed", "updated").WherePK().Exec(ctx)
	return err
}

// lockChargeOfTransfer reads the charge of transfer t, its row locked.
func lockChargeOfTransfer(ctx context.Context, w *op.W, t *models.Transfer) (*models.Charge, error) {
	ch := new(models.Charge)
	if err := w.Tx.Select(ch).Where("ch.transfer_id = ?", t.ID).For("UPDATE").Scan(ctx); err != nil {
		return nil, err
	}
	ch.PaymentMethodDetails = t.SourcePaymentMethod
	return ch, nil
}
