package usage

import (
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is what the family's operations share: the kit, the invoices
// usage bills through, and its resources.
type Service struct {
	*op.Kit
	Invoices *invoiceBiller

	Meters         *Meters
	MeteringEvents *MeteringEvents
	// Metering serves /v1/billing/metering: meters and usage records.
	Metering *Metering
	Reports  *Reports
	// BillingCredits, UsageInvoices and UsageThresholds: credit pools,
	// invoices of usage windows, auto-charge thresholds.
	BillingCredits  *BillingCredits
	UsageInvoices   *UsageInvoices
	UsageThresholds *UsageThresholds
}

// invoiceBiller is the invoices family as usage bills through it
// (billUsage, usage_invoice_bill.go).
type invoiceBiller struct{ *invoices.Invoices }

// New returns the family over kit, billing through inv.
func New(kit *op.Kit, inv *invoices.Invoices) *Service {
	s := &Service{Kit: kit, Invoices: &invoiceBiller{inv}}
	s.Meters, s.MeteringEvents = newMeters(s), newMeteringEvents(s)
	s.Metering = &Metering{meters: s.Meters, events: s.MeteringEvents}
	s.Reports = newReports(s)
	s.BillingCredits, s.UsageInvoices = newBillingCredits(s), newUsageInvoices(s)
	s.UsageThresholds = newUsageThresholds(s)
	return s
}

// secretOnly is the credential kind of every operation of the family.
var secretOnly = []auth.Kind{auth.SecretKey}
