package money

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// InvoiceCharge is what paying an invoice charges: its amount, in its
// currency, to its payer (a customer or an account), on PaymentMethodID or,
// when nil, on the payer's default payment method.
type InvoiceCharge struct {
	InvoiceID             uuid.UUID
	Amount                int64
	Currency              string
	Description           *string
	CustomerID, AccountID *uuid.UUID
	PaymentMethodID       *uuid.UUID
}

// CodePaymentMethodMissing is the 422 of paying an invoice whose payer has
// no payment method to charge.
const CodePaymentMethodMissing = "payment_method_missing"

// ChargeInvoice charges an invoice in the caller's write, by the pieces
// transfers and charge intents use (charging.go): the payment method is
// locked, the charge priced by the applicable charge agreement (the
// account's, else the merchant's), screened against the block lists and
// answered by the sandbox processor. Approved, the charge is captured at
// once and its journal posted, naming the invoice; declined (or
// challenged: nobody is there to answer a 3-D Secure challenge), the
// failed charge is recorded and returned, never thrown.
func (s *Service) ChargeInvoice(ctx context.Context, w *op.W, in InvoiceCharge) (*models.Charge, error) {
	pm, err := invoiceMethod(ctx, w, in)
	if err != nil {
		return nil, err
	}
	event := billableEventOf(pm)
	price, err := resolvePricing(ctx, w.Tx, w.Now(), models.CategoryCharge, event, in.AccountID, nil, "")
	if err != nil {
		return nil, err
	}
	q, err := price.quote(in.Amount, strings.ToUpper(in.Currency))
	if err != nil {
		return nil, err
	}
	of := chargeFor{invoiceID: &in.InvoiceID, amount: in.Amount, currency: strings.ToUpper(in.Currency),
		description: in.Description, metadata: models.Metadata{}, accountID: in.AccountID, customerID: in.CustomerID}
	code, err := Screen(ctx, w, pm, in.AccountID, in.CustomerID)
	if err != nil {
		return nil, err
	}
	if code == "" {
		switch answer := processorAnswer(pm, q.GrossAmount); answer.Result {
		case processor.Declined:
			code = answer.Code
		case processor.Challenge:
			code = processor.ChallengeDeclineCode
		}
	}
	if code != "" {
		ch := newCharge(w, of, pm, declineOf(code, pm.Type == models.PaymentMethodACH))
		return ch, insertCharge(ctx, w, ch)
	}
	if err := consume(ctx, w, pm); err != nil {
		return nil, err
	}
	ch := newCharge(w, of, pm, nil)
	j := captureJournal(journalRef{RefInvoice, in.InvoiceID}, event, in.Currency, ch, q, w.Now())
	_, err = recordCapture(ctx, w, ch, in.Amount, q.NetAmount, false, j, false)
	return ch, err
}

// invoiceMethod locks the payment method an invoice is charged on: the one
// named, which must be the payer's and active, or else the payer's default
// one, its newest active payment method.
func invoiceMethod(ctx context.Context, w *op.W, in InvoiceCharge) (*models.PaymentMethod, error) {
	pm := new(models.PaymentMethod)
	q := w.Tx.Select(pm)
	if in.CustomerID != nil {
		q = q.Where("pm.customer_id = ?", *in.CustomerID)
	} else {
		q = q.Where("pm.account_id = ?", *in.AccountID)
	}
	if in.PaymentMethodID != nil {
		q = q.Where("pm.id = ?", *in.PaymentMethodID)
	} else {
		q = q.Where("pm.status = ?", models.PaymentMethodActive).OrderExpr("pm.created DESC, pm.id DESC").Limit(1)
	}
	if err := q.For("UPDATE").Scan(ctx); err != nil {
		if !store.IsNoRows(err) {
			return nil, err
		}
		if in.PaymentMethodID != nil {
			return nil, apierr.FieldError("payment_method", "is not a payment method of the invoice's payer")
		}
		return nil, apierr.Rule(CodePaymentMethodMissing, "The invoice's payer has no active payment method to charge", "", nil)
	}
	if pm.Status != models.PaymentMethodActive {
		return nil, apierr.FieldError("payment_method", "is "+string(pm.Status)+" and cannot be used")
	}
	return pm, nil
}
