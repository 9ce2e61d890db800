package resolvers

import (
	"context"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/usage"
)

// Meters and metering events load by id (nodes, meteringEvent,
// MeteringEvent.meter); the current usage of customers and subscriptions
// loads for a whole level of them in one statement (Customer.usage,
// Subscription.usage).
var (
	meteringEventLoader = nodeLoader("meteringEvent", func(r *Resolver) batch[*models.MeteringEvent] {
		return r.Svc.Billing.MeteringEvents.ByIDs
	})
	billingMeterLoader = nodeLoader("billingMeter", func(r *Resolver) batch[*models.BillingMeter] {
		return r.Svc.Billing.Meters.ByIDs
	})
	usageOfCustomerLoader = loader("usageOfCustomer", func(r *Resolver) batch[*models.UsageReport] {
		return r.Svc.Billing.Reports.OfCustomers
	})
	usageOfSubscriptionLoader = loader("usageOfSubscription", func(r *Resolver) batch[*models.UsageReport] {
		return r.Svc.Billing.Reports.OfSubscriptions
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(productLoader, "product", func(m *models.BillingMeter) string { return idKey(m.ProductID) })
	_ = edge(billingMeterLoader, "meter", func(e *models.MeteringEvent) string { return e.MeterID.String() })
	_ = edge(customerLoader, "customer", func(e *models.MeteringEvent) string { return idKey(e.CustomerID) })
	_ = edge(accountLoader, "account", func(e *models.MeteringEvent) string { return idKey(e.AccountID) })
	_ = edge(invoiceLoader, "invoice", func(e *models.MeteringEvent) string { return idKey(e.InvoiceID) })
	_ = edge(usageOfCustomerLoader, "usage", func(c *models.Customer) string { return c.ID.String() })
	_ = edge(usageOfSubscriptionLoader, "usage", func(s *models.Subscription) string { return s.ID.String() })
	_ = edge(customerLoader, "customer", func(u *models.UsageReport) string { return idKey(u.CustomerID) })
	_ = edge(accountLoader, "account", func(u *models.UsageReport) string { return idKey(u.AccountID) })
	_ = edge(subscriptionLoader, "subscription", func(u *models.UsageReport) string { return idKey(u.SubscriptionID) })
	_ = edge(billingMeterLoader, "meter", func(e *models.EventUsage) string { return idKey(e.MeterID) })
)

func meteringEvents(ctx context.Context, r *Resolver, f *usage.MeteringEventFilter, first *int, after *string) (*model.MeteringEventConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.MeteringEvents.List, filterOf(f, same[usage.MeteringEventFilter]),
		first, after, meteringEventLoader, func(cursor string, e *models.MeteringEvent) *model.MeteringEventEdge {
			return &model.MeteringEventEdge{Cursor: cursor, Node: e}
		})
	return &model.MeteringEventConnection{Edges: edges, PageInfo: info}, err
}

func billingMeters(ctx context.Context, r *Resolver, f *usage.MeterFilter, first *int, after *string) (*model.BillingMeterConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.Meters.List, filterOf(f, same[usage.MeterFilter]),
		first, after, billingMeterLoader, func(cursor string, m *models.BillingMeter) *model.BillingMeterEdge {
			return &model.BillingMeterEdge{Cursor: cursor, Node: m}
		})
	return &model.BillingMeterConnection{Edges: edges, PageInfo: info}, err
}

// same is the filter itself (the GraphQL input binds to it).
func same[F any](f F) F { return f }

// usageReport is REST's customer report from GraphQL's arguments.
func usageReport(ctx context.Context, r *Resolver, customer, account *string, from, to wire.Timestamp) (*models.UsageReport, error) {
	return r.Svc.Billing.Reports.Customer(ctx, &models.CustomerUsageReportInput{
		From: instant(from), To: instant(to), Customer: customer, Account: account})
}

// eventUsageReport is REST's events report from GraphQL's arguments.
func eventUsageReport(ctx context.Context, r *Resolver, events []string, customer, account *string, from, to wire.Timestamp) (*models.UsageReport, error) {
	names := strings.Join(events, ",")
	return r.Svc.Billing.Reports.Events(ctx, &models.EventsReportInput{
		Events: &names, EventReportSpan: models.EventReportSpan{StartDate: instant(from), EndDate: instant(to),
			Customer: customer, Account: account}})
}

// instant renders a DateTime argument as a report bound.
func instant(t wire.Timestamp) *string {
	s := t.UTC().Format(time.RFC3339)
	return &s
}

// isoTimestamp is a report's bound as a DateTime.
func isoTimestamp(t models.ISOTime) *wire.Timestamp { return &wire.Timestamp{Time: t.Time} }
