package invoices

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is what the family's operations share. An invoice is paid
// through the money area's public charge operation
// (money.Service.ChargeMethod, invoice_charge.go), so a paid invoice has
// its charge and its journal on the ledger like any transfer.
type Service struct {
	*op.Kit
	Money *money.Service

	Invoices  *Invoices
	LineItems *LineItems

	// Subscriptions is what paying a subscription's invoice does to the
	// subscription, registered by the subscriptions family (which bills
	// through this one, so this one cannot import it).
	Subscriptions SubscriptionPayments
}

// SubscriptionPayments is the subscriptions family as paying an invoice
// reaches it: Pay locks the invoice's subscription after the invoice and
// before the charge locks the payment method (the lock order every
// billing write keeps, docs/billing.md), and once the invoice is paid
// lets the subscription react.
type SubscriptionPayments interface {
	// LockOfInvoice locks the subscription of an invoice the write has
	// locked.
	LockOfInvoice(ctx context.Context, w *op.W, subscriptionID uuid.UUID) (PaidSubscription, error)
}

// PaidSubscription is a subscription locked by Pay, told when its
// invoice is paid.
type PaidSubscription interface {
	InvoicePaid(ctx context.Context, w *op.W, inv *models.Invoice) error
}

// New returns the family over kit, charging through m.
func New(kit *op.Kit, m *money.Service) *Service {
	s := &Service{Kit: kit, Money: m}
	s.Invoices, s.LineItems = newInvoices(s), newLineItems(s)
	return s
}

// OverdueSource is the overdue notice of open invoices, an effect of
// time (invoice_overdue.go).
func (s *Service) OverdueSource() due.DueSource { return overdueSource{s} }

// secretOnly is the credential kind of every operation of the family.
var secretOnly = []auth.Kind{auth.SecretKey}
