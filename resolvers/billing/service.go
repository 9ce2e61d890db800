package billing

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is the billing area: subscriptions, their change logs, and
// invoices and their line items. An
// invoice is paid through the money area's charge path
// (money.Service.ChargeInvoice), so a paid invoice has its charge and its
// journal on the ledger like any transfer.
type Service struct {
	*op.Kit
	Money *money.Service

	Invoices      *Invoices
	LineItems     *LineItems
	Subscriptions *Subscriptions
	ChangeLogs    *ChangeLogs
	TestClocks    *TestClocks

	// Usage billing (docs/billing.md, "Usage billing").
	Meters         *Meters
	MeteringEvents *MeteringEvents
	Reports        *Reports
	// BillingCredits, UsageInvoices and UsageThresholds: credit pools,
	// invoices of usage windows, auto-charge thresholds.
	BillingCredits  *BillingCredits
	UsageInvoices   *UsageInvoices
	UsageThresholds *UsageThresholds

	// DueInterval is how often the effects due on the server's clock run
	// (RecurringJobs); zero means DefaultDueInterval.
	DueInterval time.Duration
	// AdvanceBudget is how many due effects one test clock advance
	// request, or one slice of its background continuation, applies at
	// most; zero means DefaultAdvanceBudget.
	AdvanceBudget int

	// dueSources are the kinds of effect time causes (due.go), in the
	// order they were added.
	dueSources []DueSource
}

// AddDueSource registers a kind of effect that falls due with time.
func (s *Service) AddDueSource(src DueSource) { s.dueSources = append(s.dueSources, src) }

// DueSources are the registered kinds of effect.
func (s *Service) DueSources() []DueSource { return s.dueSources }

// New returns the area's service over kit.
func New(kit *op.Kit, m *money.Service) *Service {
	s := &Service{Kit: kit, Money: m}
	s.Invoices, s.LineItems = newInvoices(s), newLineItems(s)
	s.Subscriptions, s.ChangeLogs = newSubscriptions(s), newChangeLogs(s)
	s.TestClocks = newTestClocks(s)
	s.Meters, s.MeteringEvents = newMeters(s), newMeteringEvents(s)
	s.Reports = newReports(s)
	s.BillingCredits, s.UsageInvoices = newBillingCredits(s), newUsageInvoices(s)
	s.UsageThresholds = newUsageThresholds(s)
	s.AddDueSource(renewals{s})
	s.AddDueSource(retries{s})
	s.AddDueSource(resumes{s})
	s.AddDueSource(overdueSource{s})
	return s
}

// secretOnly is the credential kind of every operation of the area.
var secretOnly = []auth.Kind{auth.SecretKey}
