package money

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// MethodCharge is a charge another area makes at once on a payment
// method its write has locked: the amount, in its currency, for its payer
// (a customer or an account), paying the invoice InvoiceID (the charge
// names it, and its journal is posted against it). With SubscriptionID
// (the invoice's subscription), the attempt is made through a charge
// intent of the payer naming the invoice and the subscription
// (charge_intent_invoice.go).
type MethodCharge struct {
	InvoiceID             uuid.UUID
	SubscriptionID        *uuid.UUID
	Amount                int64
	Currency              string
	Description           *string
	CustomerID, AccountID *uuid.UUID
}

// ChargeMethod charges pm, which the caller's write has locked, by the
// pieces transfers and charge intents use (charging.go): the charge is
// priced by the applicable charge agreement (the account's, else the
// merchant's), screened against the block lists and answered by the
// sandbox processor. Approved, the charge is captured at once and its
// journal posted, naming the invoice; declined (or challenged: nobody is
// there to answer a 3-D Secure challenge), the failed charge is recorded
// and returned, never thrown.
func (s *Service) ChargeMethod(ctx context.Context, w *op.W, pm *models.PaymentMethod, in MethodCharge) (*models.Charge, error) {
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
	ci := invoiceIntent(w, in, pm, event, price)
	if ci != nil {
		of.chargeIntentID = &ci.ID
	}
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
		if err := insertCharge(ctx, w, ch); err != nil {
			return nil, err
		}
		return ch, s.recordInvoiceIntent(ctx, w, ci, ch)
	}
	if err := consume(ctx, w, pm); err != nil {
		return nil, err
	}
	ch := newCharge(w, of, pm, nil)
	j := captureJournal(journalRef{RefInvoice, in.InvoiceID}, event, in.Currency, ch, q, w.Now())
	if _, err = recordCapture(ctx, w, ch, in.Amount, q.NetAmount, false, j, false); err != nil {
		return nil, err
	}
	return ch, s.recordInvoiceIntent(ctx, w, ci, ch)
}
