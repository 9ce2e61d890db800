package subscriptions

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// LockOfInvoice locks the subscription of an invoice being paid
// (invoices.SubscriptionPayments): the lock order is the invoice, then
// its subscription.
func (ss *Subscriptions) LockOfInvoice(ctx context.Context, w *op.W, id uuid.UUID) (invoices.PaidSubscription, error) {
	locked, err := lockSubscriptionOf(ctx, w, id)
	if err != nil {
		return nil, err
	}
	return paidSubscription{ss: ss, locked: locked}, nil
}

// paidSubscription is a subscription locked by an invoice's payment.
type paidSubscription struct {
	ss     *Subscriptions
	locked *lockedSubscription
}

func (p paidSubscription) InvoicePaid(ctx context.Context, w *op.W, inv *models.Invoice) error {
	return p.ss.invoicePaid(ctx, w, inv, p.locked)
}
