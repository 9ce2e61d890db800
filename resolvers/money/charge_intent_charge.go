package money

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A charge intent is charged by the pieces transfers use (charging.go):
// priced by the agreement lookup or an explicit plan when it is confirmed,
// answered by the sandbox processor, its answer recorded as a charge, its
// captures journaled on the ledger naming that charge.

// withIntentRelations reads an intent with its payment method and its
// charge in the intent's own statement.
func withIntentRelations(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Relation("PaymentMethod").Relation("LatestCharge")
}

// chargeIntent confirms ci with pm in the caller's write: the charge is
// priced (the plan is kept for the captures), then the processor answers.
// Approved, it is captured (automatic) or left requires_capture (manual);
// declined, the intent is recorded failed with the decline, never thrown;
// challenged, it waits in requires_3d_secure.
func (s *Service) chargeIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, pm *models.PaymentMethod) error {
	event := billableEventOf(pm)
	price, err := resolvePricing(ctx, w.Tx, w.Now(), models.CategoryCharge, event, ci.AccountID, ci.RequestedFeePlanID,
		"transfer_fee_plan_id")
	if err != nil {
		return err
	}
	q, err := price.quote(ci.Amount, ledgerCurrency(ci))
	if err != nil {
		return err
	}
	ci.PaymentMethodID, ci.PaymentMethod = &pm.ID, pm
	ci.BillableEventType, ci.FeePlanID, ci.BillingAgreementID = &event, &price.plan.ID, nil
	if price.agreement != nil {
		ci.BillingAgreementID = &price.agreement.ID
	}
	switch answer := processorAnswer(pm, q.GrossAmount); answer.Result {
	case processor.Declined:
		return s.declineIntent(ctx, w, ci, pm, answer.Code)
	case processor.Challenge:
		ci.Status = models.ChargeIntentRequires3DS
		if err := s.saveIntent(ctx, w, ci, EventChargeIntentRequiresAction, nil); err != nil {
			return err
		}
		return s.emitIntent(ctx, w, EventChargeIntentPaymentActionRequired, ci, nil)
	}
	return s.approveIntent(ctx, w, ci, pm)
}

// approveIntent carries an approved charge on: captured at once, or
// authorized for a manual capture. Either way it records the charge.
func (s *Service) approveIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, pm *models.PaymentMethod) error {
	if err := consume(ctx, w, pm); err != nil {
		return err
	}
	ch := intentCharge(w, ci, pm, nil)
	if ci.AuthorizationMode == "manual" {
		ci.Status = models.ChargeIntentRequiresCapture
		if err := insertCharge(ctx, w, ch); err != nil {
			return err
		}
		return s.saveIntent(ctx, w, ci, EventChargeIntentUpdated, nil)
	}
	return s.captureIntent(ctx, w, ci, ch, false, ci.Amount)
}

// declineIntent records a decline of pm: the failed charge, and the intent
// failed with the decline's buyer-safe message.
func (s *Service) declineIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, pm *models.PaymentMethod, code string) error {
	d := declineOf(code, pm.Type == models.PaymentMethodACH)
	ci.Status, ci.FailureDescription = models.ChargeIntentFailed, &d.message
	if err := insertCharge(ctx, w, intentCharge(w, ci, pm, d)); err != nil {
		return err
	}
	return s.saveIntent(ctx, w, ci, EventChargeIntentPaymentFailed, nil)
}

// intentCharge is the charge of ci's confirmation, named by the intent
// (latest_charge).
func intentCharge(w *op.W, ci *models.ChargeIntent, pm *models.PaymentMethod, d *decline) *models.Charge {
	ch := newCharge(w, chargeFor{chargeIntentID: &ci.ID, amount: ci.Amount, currency: ci.Currency,
		description: ci.Description, metadata: ci.Metadata, accountID: ci.AccountID, customerID: ci.CustomerID}, pm, d)
	ci.LatestChargeID, ci.LatestCharge = &ch.ID, ch
	return ch
}

// captureIntent captures amount more of ci's charge ch (stored says
// whether ch is already written). Each capture is priced on the running
// total with the plan that priced the intent (fees.Increment), so the fees
// of several partial captures are those of one capture of their sum; the
// increment is journaled naming the charge. Everything authorized captured,
// the intent has succeeded; otherwise it still requires capture of the
// rest (or void_remaining).
func (s *Service) captureIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, ch *models.Charge, stored bool, amount int64) error {
	price, err := planPricing(ctx, w.Tx, *ci.FeePlanID, *ci.BillableEventType)
	if err != nil {
		return err
	}
	currency := ledgerCurrency(ci)
	total, err := price.quote(ci.AmountCaptured+amount, currency)
	if err != nil {
		return err
	}
	var before fees.Quote
	if ci.AmountCaptured > 0 {
		if before, err = price.quote(ci.AmountCaptured, currency); err != nil {
			return err
		}
	}
	ci.AmountCaptured += amount
	typ := EventChargeIntentUpdated
	if ci.Capturable() == 0 {
		ci.Status, typ = models.ChargeIntentSucceeded, EventChargeIntentSucceeded
	}
	// The dispute test card opens its chargeback once the intent is fully
	// captured, as a transfer's capture does.
	chargeback := ci.Status == models.ChargeIntentSucceeded && !ch.Disputed && disputedOnCapture(ch)
	journal := captureJournal(journalRef{RefChargeIntent, ci.ID}, *ci.BillableEventType, ci.Currency, ch,
		fees.Increment(total, before), w.Now())
	d, err := recordCapture(ctx, w, ch, ci.AmountCaptured, total.NetAmount, stored, journal, chargeback)
	if err != nil {
		return err
	}
	ci.LatestChargeID, ci.LatestCharge = &ch.ID, ch
	if err := s.saveIntent(ctx, w, ci, typ, nil); err != nil {
		return err
	}
	if d != nil {
		return emitDispute(w, EventDisputeCreated, d, nil)
	}
	return nil
}

// ledgerCurrency is the intent's currency as plans and the ledger write
// it (upper case).
func ledgerCurrency(ci *models.ChargeIntent) string { return strings.ToUpper(ci.Currency) }
