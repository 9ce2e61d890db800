package money

import (
	"context"
	"strconv"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Capture captures an authorized intent (requires_capture):
// all that is still authorized, or amount_captured_cents of it (from 1 to
// what remains). A partial capture leaves the rest authorized: the intent
// stays requires_capture, and later captures take more until everything is
// captured (succeeded) or void_remaining releases the rest.
func (cis *ChargeIntents) Capture(ctx context.Context, id string, in *models.CaptureChargeIntentInput) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.capture", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		ci, err := lockIntentIn(ctx, w, id, "captured", models.ChargeIntentRequiresCapture)
		if err != nil {
			return nil, err
		}
		amount := ci.Capturable()
		if in.AmountCapturedCents != nil {
			if *in.AmountCapturedCents <= 0 || *in.AmountCapturedCents > amount {
				return nil, apierr.FieldError("amount_captured_cents", "must be from 1 to the amount still authorized ("+
					strconv.FormatInt(amount, 10)+")")
			}
			amount = *in.AmountCapturedCents
		}
		ch, err := lockCharge(ctx, w, *ci.LatestChargeID, ci.PaymentMethod)
		if err != nil {
			return nil, err
		}
		return ci, s.captureIntent(ctx, w, ci, ch, true, amount)
	})
}

// VoidRemaining ends a partially captured intent: what is
// still authorized is released (amount_voided) and the intent has
// succeeded with what it captured. Nothing is journaled: no money moves.
// An intent that captured nothing is canceled instead (422 invalid_state
// says so); any other state is 422 invalid_state.
func (cis *ChargeIntents) VoidRemaining(ctx context.Context, id string) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.void_remaining", Allow: secretOnly, Params: map[string]any{"id": id}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		ci, err := lockIntentIn(ctx, w, id, "voided", models.ChargeIntentRequiresCapture)
		if err != nil {
			return nil, err
		}
		if ci.AmountCaptured == 0 {
			return nil, apierr.InvalidState("Nothing of this charge intent was captured: cancel it to release the whole authorization")
		}
		ci.AmountVoided += ci.Capturable()
		ci.Status = models.ChargeIntentSucceeded
		return ci, s.saveIntent(ctx, w, ci, EventChargeIntentSucceeded, nil)
	})
}

// cancelableIntent are the states an intent can be canceled from: before
// any money moved (an authorization is released whole).
var cancelableIntent = []models.ChargeIntentStatus{models.ChargeIntentRequiresPaymentMethod,
	models.ChargeIntentRequiresConfirmation, models.ChargeIntentRequires3DS, models.ChargeIntentRequiresCapture}

// Cancel cancels an intent no money has moved for. A canceled
// authorization is released whole (amount_voided); its charge stays
// succeeded with nothing captured. A partially captured intent is ended
// with void_remaining instead.
func (cis *ChargeIntents) Cancel(ctx context.Context, id string) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.cancel", Allow: secretOnly, Params: map[string]any{"id": id}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		ci, err := lockIntentIn(ctx, w, id, "canceled", cancelableIntent...)
		if err != nil {
			return nil, err
		}
		if ci.AmountCaptured > 0 {
			return nil, apierr.InvalidState("This charge intent captured " + strconv.FormatInt(ci.AmountCaptured, 10) +
				": void_remaining releases the rest")
		}
		if ci.Status == models.ChargeIntentRequiresCapture {
			ci.AmountVoided = ci.Capturable()
		}
		ci.Status = models.ChargeIntentCanceled
		return ci, s.saveIntent(ctx, w, ci, EventChargeIntentCanceled, nil)
	})
}

// Update changes an intent (PATCH): description, receipt
// e-mail, shipping and metadata at any time; amount, currency, the payer
// (customer or account) and the payment method only before it is
// confirmed (422 invalid_state after), and amount and currency not once
// promotion codes reduced it. A payment method given makes an intent
// waiting for one requires_confirmation. Announced as
// charge_intent.updated with previous_attributes when something changed.
func (cis *ChargeIntents) Update(ctx context.Context, id string, in *models.UpdateChargeIntentInput) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		ci, err := lockIntent(ctx, w, id)
		if err != nil {
			return nil, err
		}
		var f apierr.Fields
		change := in.Check(&f, ci.Metadata)
		if err := f.Err(); err != nil {
			return nil, err
		}
		before, err := s.renderIntent(ctx, w.Tx, ci)
		if err != nil {
			return nil, err
		}
		if err := s.applyIntentChange(ctx, w, ci, in, change); err != nil {
			return nil, err
		}
		after, err := s.renderIntent(ctx, w.Tx, ci)
		if err != nil {
			return nil, err
		}
		prev, err := events.PreviousAttributes(before, after)
		if err != nil || prev == nil {
			return ci, err
		}
		return ci, s.saveIntent(ctx, w, ci, EventChargeIntentUpdated, prev)
	})
}

// applyIntentChange applies a checked update to ci in memory.
func (s *Service) applyIntentChange(ctx context.Context, w *op.W, ci *models.ChargeIntent, in *models.UpdateChargeIntentInput,
	c *models.ChargeIntentChange) error {
	charging := c.Amount != nil || c.Currency != nil || c.CustomerID != nil || c.AccountID != nil || c.PaymentMethodID != nil
	if charging && ci.Status != models.ChargeIntentRequiresPaymentMethod && ci.Status != models.ChargeIntentRequiresConfirmation {
		return apierr.InvalidState("A charge intent in status " + string(ci.Status) +
			" cannot change its amount, currency, customer, account or payment method")
	}
	if (c.Amount != nil || c.Currency != nil) && ci.Amount != ci.AmountBeforeDiscounts {
		param := "amount"
		if c.Amount == nil {
			param = "currency"
		}
		return apierr.FieldError(param, "cannot change once promotion codes reduced the amount")
	}
	if c.Amount != nil {
		ci.Amount, ci.AmountBeforeDiscounts = *c.Amount, *c.Amount
	}
	if c.Currency != nil {
		ci.Currency = *c.Currency
	}
	if err := setPayer(ctx, w.Tx, ci, c.CustomerID, c.AccountID); err != nil {
		return err
	}
	switch {
	case c.PaymentMethodID != nil:
		pm, err := intentMethod(ctx, w, ci, *c.PaymentMethodID, "payment_method")
		if err != nil {
			return err
		}
		ci.PaymentMethodID, ci.PaymentMethod, ci.Status = &pm.ID, pm, models.ChargeIntentRequiresConfirmation
	case ci.PaymentMethod != nil && (c.CustomerID != nil || c.AccountID != nil):
		if err := ownsMethod(ci, ci.PaymentMethod, "payment_method"); err != nil {
			return apierr.FieldError("payment_method", "belongs to another payer than the new one: give a payment_method too")
		}
	}
	if in.Description != nil {
		ci.Description = in.Description
	}
	if in.ReceiptEmail != nil {
		ci.ReceiptEmail = in.ReceiptEmail
	}
	if in.Shipping != nil {
		ci.Shipping = models.AddressFrom(in.Shipping, ci.Shipping, models.AddressShipping, ids.New(w.Now()), ci.Livemode)
	}
	if in.Metadata != nil {
		ci.Metadata = models.MergeMetadata(ci.Metadata, in.Metadata)
	}
	return nil
}
