package money

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// transferProvider is what production transfers and charges need
// (op.Spec.Provider): no card processor or bank provider ships, so
// production mode refuses them before any look-up.
const transferProvider = "card processor or bank"

// errNoProvider refuses production charges: no card processor or bank
// ships with the server (API-DECISIONS §1).
var errNoProvider = apierr.Unavailable(apierr.CodeProviderNotConfigured,
	"Production transfers need a card processor or bank provider, and none is configured", 0, nil)

// chargeableMethod locks the source payment method (its single-use
// consumption and the charge are serialized on the row) and checks it may
// be charged for the account: the caller's, the account's own, active.
func chargeableMethod(ctx context.Context, w *op.W, id, accountID uuid.UUID) (*models.PaymentMethod, error) {
	return ownMethod(ctx, w, id, accountID, "source_payment_method_id")
}

// run confirms a charge with the sandbox processor, in the caller's write:
// approved, it is captured (or left requires_capture for a manual
// authorization); declined, it is recorded failed with the decline's
// code, message and reason, never thrown; challenged, it waits in
// requires_3d_secure. A captured charge posts its journal.
func (s *Service) run(ctx context.Context, w *op.W, t *models.Transfer, pm *models.PaymentMethod) error {
	if code, err := Screen(ctx, w, pm, &t.AccountID, nil); err != nil || code != "" {
		if err != nil {
			return err
		}
		return s.fail(ctx, w, t, pm, code)
	}
	answer := processorAnswer(pm, max(t.GrossAmount, t.Amount))
	switch answer.Result {
	case processor.Declined:
		return s.fail(ctx, w, t, pm, answer.Code)
	case processor.Challenge:
		t.Status = models.TransferRequires3DS
		return s.save(ctx, w, t, EventTransferUpdated)
	}
	return s.approve(ctx, w, t, pm)
}

// approve carries an approved charge on: captured at once, or authorized
// for a manual capture. Either way it records the charge.
func (s *Service) approve(ctx context.Context, w *op.W, t *models.Transfer, pm *models.PaymentMethod) error {
	if err := consume(ctx, w, pm); err != nil {
		return err
	}
	ch := chargeOfTransfer(w, t, pm, nil)
	if t.AuthorizationMode == "manual" {
		t.Status = models.TransferRequiresCapture
		if err := insertCharge(ctx, w, ch); err != nil {
			return err
		}
		return s.save(ctx, w, t, EventTransferUpdated)
	}
	return s.capture(ctx, w, t, ch, false, t.Amount)
}

// fail records a decline of pm, and the failed charge.
func (s *Service) fail(ctx context.Context, w *op.W, t *models.Transfer, pm *models.PaymentMethod, code string) error {
	d := declineOf(code, t.BillableEventType == models.BillableChargeACH)
	t.Status, t.FailureCode, t.FailureMessage, t.FailureReason = models.TransferFailed, &d.code, &d.message, &d.reason
	if err := insertCharge(ctx, w, chargeOfTransfer(w, t, pm, d)); err != nil {
		return err
	}
	return s.save(ctx, w, t, EventTransferFailed)
}

// capture captures amount of charge ch of an authorized transfer (stored
// says whether ch is already written): reprices it on that amount with
// the plan that priced it, records the capture on the charge, posts the
// capture journal and announces transfer.succeeded.
func (s *Service) capture(ctx context.Context, w *op.W, t *models.Transfer, ch *models.Charge, stored bool, amount int64) error {
	price, err := planPricing(ctx, w.Tx, t.TransferFeePlanID, t.BillableEventType)
	if err != nil {
		return err
	}
	q, err := price.quote(amount, t.Currency)
	if err != nil {
		return err
	}
	t.PlatformFee, t.FrameFee, t.TotalFees, t.GrossAmount, t.NetAmount = q.PlatformFee, q.FrameFee, q.TotalFees, q.GrossAmount, q.NetAmount
	t.Status, t.AmountCaptured, t.Updated = models.TransferSucceeded, amount, models.At(w.Now())
	journal := captureJournal(journalRef{RefTransfer, t.ID}, t.BillableEventType, t.Currency, ch, q, t.Updated.Time)
	d, err := recordCapture(ctx, w, ch, amount, q.NetAmount, stored, journal, disputedOnCapture(ch))
	if err != nil {
		return err
	}
	if err := scheduleSettlement(ctx, w, t, w.Now()); err != nil {
		return err
	}
	if err := s.save(ctx, w, t, EventTransferSucceeded); err != nil {
		return err
	}
	if d != nil {
		return emitDispute(w, EventDisputeCreated, d, nil)
	}
	return nil
}

// consume marks a single-use wallet credential used.
func consume(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
	if !pm.SingleUse || pm.Card == nil || pm.Card.Wallet == nil {
		return nil
	}
	pm.Card.Wallet.Consumed = true
	pm.Updated = models.At(w.Now())
	_, err := w.Tx.Update(pm).Column("card", "updated").WherePK().Exec(ctx)
	return err
}

// save writes the transfer's changing columns and announces typ.
func (s *Service) save(ctx context.Context, w *op.W, t *models.Transfer, typ events.Type) error {
	t.Updated = models.At(w.Now())
	if _, err := w.Tx.Update(t).Column("status", "charge_id", "amount_captured", "platform_fee", "frame_fee", "total_fees",
		"gross_amount", "net_amount", "failure_code", "failure_message", "failure_reason", "description", "metadata",
		"settles_at", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	return emit(w, typ, t, nil)
}

// emit announces typ with the transfer as REST renders it.
func emit(w *op.W, typ events.Type, t *models.Transfer, prev map[string]any) error {
	t.Derive()
	raw, err := events.Render(t)
	if err != nil {
		return err
	}
	w.Emit(typ, t.ID, json.RawMessage(raw), prev)
	return nil
}
