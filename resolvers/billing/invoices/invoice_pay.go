package invoices

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type payInvoiceParams struct {
	ID    string                  `json:"id"`
	Input *models.PayInvoiceInput `json:"input"`
}

// Pay collects an open (or uncollectible) invoice: it charges the payment
// method named, else the payer's default one (its newest active payment
// method), through the money area's charge path; or, paid out of band,
// records it paid with no charge. A decline is recorded, not thrown
// (API-DECISIONS §9): the answer is the invoice, still open, with
// last_payment_error. The invoice's row lock serializes concurrent pays:
// the second finds it paid (422 invalid_state), so it is billed once.
// Paying a subscription's invoice may return the subscription to active
// (SubscriptionPayments, registered by the subscriptions family): the subscription is locked after the
// invoice and before the charge locks the payment method, the lock order
// every billing write keeps (docs/billing.md, "Lock order").
func (is *Invoices) Pay(ctx context.Context, id string, in *models.PayInvoiceInput) (*models.Invoice, error) {
	var pm *uuid.UUID
	spec := op.Spec{Name: "invoice.pay", Allow: secretOnly, Params: payInvoiceParams{ID: id, Input: in},
		Check: func() error {
			if err := in.Validate(); err != nil {
				return err
			}
			if in.PaymentMethod != nil {
				v, ok := ids.Parse(*in.PaymentMethod)
				if !ok {
					return apierr.FieldError("payment_method", "is not a payment method of the invoice's payer")
				}
				pm = &v
			}
			return nil
		}}
	return op.Write(ctx, is.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Invoice, error) {
		inv, err := LockInvoice(ctx, w, id)
		if err != nil {
			return nil, err
		}
		if inv.Status != models.InvoiceOpen && inv.Status != models.InvoiceUncollectible {
			return nil, apierr.InvalidState("Only an open or uncollectible invoice can be paid (the invoice is " + string(inv.Status) + ")")
		}
		var sub PaidSubscription
		if inv.SubscriptionID != nil {
			if sub, err = is.svc.Subscriptions.LockOfInvoice(ctx, w, *inv.SubscriptionID); err != nil {
				return nil, err
			}
		}
		if in.PaidOutOfBand != nil && *in.PaidOutOfBand {
			before, err := events.Render(inv)
			if err != nil {
				return nil, err
			}
			if err := paid(ctx, w, inv, before); err != nil {
				return nil, err
			}
		} else if err := is.collect(ctx, w, inv, pm); err != nil {
			return nil, err
		}
		if inv.Status == models.InvoicePaid && sub != nil {
			return inv, sub.InvoicePaid(ctx, w, inv)
		}
		return inv, nil
	})
}

// collect charges the invoice's total to its payer (an invoice of nothing
// is paid without a charge): approved, the invoice is paid, naming its
// charge; declined, it stays as it was, naming the failed charge and its
// decline (announced as invoice.updated).
func (is *Invoices) collect(ctx context.Context, w *op.W, inv *models.Invoice, pm *uuid.UUID) error {
	before, err := events.Render(inv)
	if err != nil {
		return err
	}
	if inv.Total == 0 {
		return paid(ctx, w, inv, before)
	}
	desc := inv.Description
	if inv.InvoiceNumber != nil {
		d := "Invoice " + *inv.InvoiceNumber
		desc = &d
	}
	ch, err := is.chargeInvoice(ctx, w, inv, pm, desc)
	if err != nil {
		return err
	}
	inv.ChargeID, inv.AttemptCount = &ch.ID, inv.AttemptCount+1
	if ch.Status == models.ChargeFailed {
		inv.ErrorCode, inv.ErrorMessage = ch.FailureCode, ch.FailureMessage
		return save(ctx, w, inv, before, EventInvoiceUpdated)
	}
	return paid(ctx, w, inv, before)
}

// paid records the invoice paid now and announces invoice.paid.
func paid(ctx context.Context, w *op.W, inv *models.Invoice, before []byte) error {
	now := models.At(w.Now())
	inv.Status, inv.PaidAt, inv.ErrorCode, inv.ErrorMessage = models.InvoicePaid, &now, nil, nil
	return save(ctx, w, inv, before, EventInvoicePaid)
}

// Attempt charges an open subscription or usage invoice once. In the
// background a charge refused before it reaches the processor (no payment
// method, no billing agreement) is recorded on the invoice as a failed
// attempt, as a decline is, so dunning treats both alike. A total smaller
// than the fees of charging it (amount_too_small) is recorded so in the
// foreground too: it is the bill's, not the request's, so the invoice is
// still made and its usage billed (docs/billing.md).
func (is *Invoices) Attempt(ctx context.Context, w *op.W, inv *models.Invoice, pm *uuid.UUID, background bool) error {
	before, err := events.Render(inv)
	if err != nil {
		return err
	}
	err = is.collect(ctx, w, inv, pm)
	var refused *apierr.Error
	if err == nil || !errors.As(err, &refused) || refused.Status >= 500 ||
		!(background || refused.Code == money.CodeAmountTooSmall) {
		return err
	}
	code, msg := refused.Code, refused.Message
	inv.AttemptCount, inv.ErrorCode, inv.ErrorMessage = inv.AttemptCount+1, &code, &msg
	return save(ctx, w, inv, before, EventInvoiceUpdated)
}
