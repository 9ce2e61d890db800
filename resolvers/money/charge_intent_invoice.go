package money

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A subscription invoice's payment attempt is a charge intent of the
// invoice's payer (the real service's SDK types a charge intent with its
// subscription and invoice, and a subscription with its
// latest_charge_intent): ChargeMethod makes the intent, its charge names
// it, and the intent is written once, with the charge's outcome, in the
// same write. It is not a second way of charging: the charge is
// ChargeMethod's, priced, screened, answered and journaled as every
// invoice's is (docs/billing.md, "Payment attempts are charge intents").

// invoiceIntent is the charge intent of a subscription invoice's payment
// attempt on pm, priced by price for event, before the processor answers
// (requires_confirmation); nil for an invoice of no subscription.
func invoiceIntent(w *op.W, in MethodCharge, pm *models.PaymentMethod, event string, price *pricing) *models.ChargeIntent {
	if in.SubscriptionID == nil {
		return nil
	}
	now := models.At(w.Now())
	invoiceID := in.InvoiceID
	ci := &models.ChargeIntent{ID: ids.New(w.Now()), Status: models.ChargeIntentRequiresConfirmation,
		Amount: in.Amount, AmountBeforeDiscounts: in.Amount, Currency: strings.ToLower(in.Currency),
		AuthorizationMode: models.AuthorizationAutomatic, Description: in.Description,
		CustomerID: in.CustomerID, AccountID: in.AccountID, PaymentMethodID: &pm.ID, PaymentMethod: pm,
		SubscriptionID: in.SubscriptionID, InvoiceID: &invoiceID, BillableEventType: &event, FeePlanID: &price.plan.ID,
		Metadata: models.Metadata{}, Created: now, Updated: now}
	if price.agreement != nil {
		ci.BillingAgreementID = &price.agreement.ID
	}
	ci.SetScope(w.Tx.Scope())
	return ci
}

// recordInvoiceIntent writes ci (nil: nothing to write) with the outcome
// of its charge ch: succeeded and captured, or failed with the decline's
// buyer-safe message. It issues the intent's client secret, as every
// intent has one (a secret key's reads show it), and announces
// charge_intent.created (the intent as it was before the processor
// answered), then charge_intent.succeeded or charge_intent.payment_failed.
func (s *Service) recordInvoiceIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, ch *models.Charge) error {
	if ci == nil {
		return nil
	}
	created, err := s.renderIntent(ctx, w.Tx, ci)
	if err != nil {
		return err
	}
	w.Emit(EventChargeIntentCreated, ci.ID, json.RawMessage(created), nil)
	typ := EventChargeIntentSucceeded
	ci.LatestChargeID, ci.LatestCharge = &ch.ID, ch
	if ch.Status == models.ChargeFailed {
		ci.Status, ci.FailureDescription, typ = models.ChargeIntentFailed, ch.FailureMessage, EventChargeIntentPaymentFailed
	} else {
		ci.Status, ci.AmountCaptured = models.ChargeIntentSucceeded, ci.Amount
	}
	if _, err := w.Tx.Insert(ci).Exec(ctx); err != nil {
		return err
	}
	if _, err := auth.IssueObjectSecret(ctx, w.Tx, auth.ChargeIntentSecret, auth.ChargeIntentSecretPrefix, ci.ID,
		derefID(ci.AccountID), w.Now(), ChargeIntentSecretTTL, s.deriveIntentSecret); err != nil {
		return err
	}
	return s.emitIntent(ctx, w, typ, ci, nil)
}
