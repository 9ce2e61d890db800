package money

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// chargeOfTransfer is the charge the processor's answer makes for
// transfer t, charged on pm (newCharge): approved unless d is set. The
// transfer names the charge (latest_charge).
func chargeOfTransfer(w *op.W, t *models.Transfer, pm *models.PaymentMethod, d *decline) *models.Charge {
	ch := newCharge(w, chargeFor{transferID: &t.ID, amount: t.Amount, currency: t.Currency, description: t.Description,
		metadata: t.Metadata, accountID: &t.AccountID}, pm, d)
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

// lockCharge reads charge id, its row locked, charged on pm.
func lockCharge(ctx context.Context, w *op.W, id uuid.UUID, pm *models.PaymentMethod) (*models.Charge, error) {
	ch, err := chargeTable.Lock(ctx, w, id.String(), op.LockUpdate)
	if err != nil {
		return nil, err
	}
	ch.PaymentMethodDetails = pm
	return ch, nil
}
