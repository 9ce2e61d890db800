// Package billing ties the billing families together: invoices (the
// bottom), subscriptions and usage (billing through invoices), and the
// test clocks with the runner of the effects time causes (on top). Each
// family is its own package under resolvers/billing; Service holds them
// for the transports and registers the families' reactions on each other.
package billing

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/billing/subscriptions"
	"github.com/frame-oss/payments-server/resolvers/billing/testclocks"
	"github.com/frame-oss/payments-server/resolvers/billing/usage"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is the billing area: subscriptions, their change logs, and
// invoices and their line items, usage billing and test clocks. The test
// clocks' family is embedded: its runner of due effects (DueInterval,
// AdvanceBudget, RunAllDue, the area's jobs) is the area's.
type Service struct {
	*op.Kit
	Money *money.Service

	Invoices      *invoices.Invoices
	LineItems     *invoices.LineItems
	Subscriptions *subscriptions.Subscriptions
	ChangeLogs    *subscriptions.ChangeLogs

	// Usage billing (docs/billing.md, "Usage billing").
	Meters         *usage.Meters
	MeteringEvents *usage.MeteringEvents
	Metering       *usage.Metering
	Reports        *usage.Reports
	// BillingCredits, UsageInvoices and UsageThresholds: credit pools,
	// invoices of usage windows, auto-charge thresholds.
	BillingCredits  *usage.BillingCredits
	UsageInvoices   *usage.UsageInvoices
	UsageThresholds *usage.UsageThresholds

	*testclocks.Service

	subscriptions *subscriptions.Service
}

// New returns the area's service over kit.
func New(kit *op.Kit, m *money.Service) *Service {
	inv := invoices.New(kit, m)
	subs := subscriptions.New(kit, inv)
	use := usage.New(kit, inv.Invoices)
	clocks := testclocks.New(kit)
	for _, src := range subs.DueSources() {
		clocks.AddDueSource(src)
	}
	clocks.AddDueSource(inv.OverdueSource())
	return &Service{Kit: kit, Money: m, Invoices: inv.Invoices, LineItems: inv.LineItems,
		Subscriptions: subs.Subscriptions, ChangeLogs: subs.ChangeLogs,
		Meters: use.Meters, MeteringEvents: use.MeteringEvents, Metering: use.Metering, Reports: use.Reports,
		BillingCredits: use.BillingCredits, UsageInvoices: use.UsageInvoices, UsageThresholds: use.UsageThresholds,
		Service: clocks, subscriptions: subs}
}

// CustomerHook is what the area registers on the catalog's customers: a
// deleted customer's running subscriptions are canceled
// (subscriptions.Service.CustomerHook).
func (s *Service) CustomerHook() op.Hook[models.Customer] { return s.subscriptions.CustomerHook() }
