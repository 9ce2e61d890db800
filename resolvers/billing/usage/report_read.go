package usage

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// Reports is the family of usage reports (spec doc 2 §4.6; docs/billing.md,
// "Usage reports"): a payer's usage in a window, per event name, read in
// the request from the events as they are (nothing is cached, so a report
// sees what the request before it wrote), each in one statement
// (report_query.go). Windows are half-open, [start, end), in UTC. The
// secret key's, tenant-scoped: another tenant's payer is 422 on its
// param, another tenant's subscription 404.
type Reports struct {
	svc *Service
}

func newReports(s *Service) *Reports { return &Reports{svc: s} }

// reader authorizes the caller (the secret key) and validates check,
// then answers the tenant to read in.
func (rs *Reports) reader(ctx context.Context, check func() error) (*store.Tenant, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	if err := check(); err != nil {
		return nil, err
	}
	return rs.svc.DB.Tenant(p.Scope), nil
}

// Customer is a payer's usage of every event name in [from, to).
func (rs *Reports) Customer(ctx context.Context, in *models.CustomerUsageReportInput) (*models.UsageReport, error) {
	tx, err := rs.reader(ctx, in.Validate)
	if err != nil {
		return nil, err
	}
	q, err := payerReport(tx, in.Customer, in.Account, in.Window)
	if err != nil {
		return nil, err
	}
	return rs.usageReport(ctx, tx, q, in.Window, nil, payerParam(in.Customer))
}

// Events is the usage of the names asked in [start_date, end_date), for
// one payer or every payer of the mode: one element per name, in the
// order asked, a name with no event in the window at zero.
func (rs *Reports) Events(ctx context.Context, in *models.EventsReportInput) (*models.UsageReport, error) {
	return rs.named(ctx, in.Validate, &in.EventReportSpan)
}

// named validates a report by event name (validate), then reads the usage
// of the names of its span.
func (rs *Reports) named(ctx context.Context, validate func() error, in *models.EventReportSpan) (*models.UsageReport, error) {
	tx, err := rs.reader(ctx, validate)
	if err != nil {
		return nil, err
	}
	q, err := namedReport(tx, in.Customer, in.Account, in.Window, in.Names)
	if err != nil {
		return nil, err
	}
	return rs.usageReport(ctx, tx, q, in.Window, in.Names, payerParam(in.Customer))
}

// Event is one name's usage in [start_date, end_date), for one payer or
// every payer of the mode, aggregated by the name's meter (sum when no
// event ever used the name).
func (rs *Reports) Event(ctx context.Context, in *models.EventReportInput) (*models.EventReport, error) {
	r, err := rs.named(ctx, in.Validate, &in.EventReportSpan)
	if err != nil {
		return nil, err
	}
	e := r.AggregatedUsage[0]
	return &models.EventReport{Aggregation: e.Aggregation, EventName: e.EventName, Usage: e.Usage, EventCount: e.EventCount,
		BillingMetric: e.MeterID, CustomerID: r.CustomerID, AccountID: r.AccountID, AccountIDAlias: r.AccountIDAlias,
		PeriodStart: r.PeriodStart, PeriodEnd: r.PeriodEnd, Livemode: r.Livemode, Data: r.AggregatedUsage}, nil
}

// Subscription is the usage of the subscription's payer in the
// subscription's current period, [current_period_start,
// current_period_end): 404 for an id that is not the tenant's, 422 for a
// subscription without a current period.
func (rs *Reports) Subscription(ctx context.Context, in *models.SubscriptionUsageReportInput) (*models.UsageReport, error) {
	tx, err := rs.reader(ctx, in.Validate)
	if err != nil {
		return nil, err
	}
	id, ok := ids.Parse(*in.Subscription)
	if !ok {
		return nil, apierr.NotFound("subscription", *in.Subscription)
	}
	rows, err := subscriptionReport(tx, id.String()).run(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apierr.NotFound("subscription", *in.Subscription)
	}
	if rows[0].PeriodStart == nil || rows[0].PeriodEnd == nil {
		return nil, apierr.Rule("subscription_no_current_period",
			"The subscription has no current period to report usage for", "subscription", nil)
	}
	r := assemble(rows, tx.Scope().Livemode, models.UsageWindow{Start: *rows[0].PeriodStart, End: *rows[0].PeriodEnd}, nil)
	r.SubscriptionID = &id
	return r, nil
}

// usageReport runs q and assembles its rows; no row means the payer is
// not the tenant's (422 on param).
func (rs *Reports) usageReport(ctx context.Context, tx *store.Tenant, q *reportQuery, w models.UsageWindow,
	names []string, param string) (*models.UsageReport, error) {
	rows, err := q.run(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 && !q.meterBase {
		return nil, apierr.FieldError(param, "is not a "+param+" of this merchant and mode")
	}
	if len(rows) > 0 && rows[0].PayerDeleted {
		return nil, errCustomerDeleted
	}
	return assemble(rows, tx.Scope().Livemode, w, names), nil
}

// payerParam names the payer's param in errors.
func payerParam(customer *string) string {
	if customer != nil {
		return "customer"
	}
	return "account"
}

// assemble turns the rows of one payer row into its report: every name
// with events (names nil), or one element per name asked, in order.
func assemble(rows []reportRow, livemode bool, w models.UsageWindow, names []string) *models.UsageReport {
	r := &models.UsageReport{AggregatedUsage: []*models.EventUsage{}, Livemode: livemode,
		PeriodStart: models.ISOTime{Time: w.Start.UTC()}, PeriodEnd: models.ISOTime{Time: w.End.UTC()}}
	byName := map[string]*models.EventUsage{}
	for i := range rows {
		row := &rows[i]
		if i == 0 {
			r.CustomerID, r.AccountID, r.AccountIDAlias = row.CustomerID, row.AccountID, row.AccountID
		}
		if row.EventName == nil {
			continue
		}
		e := row.usage()
		byName[e.EventName] = e
		if names == nil {
			r.AggregatedUsage = append(r.AggregatedUsage, e)
		}
	}
	for _, name := range names {
		e := byName[name]
		if e == nil {
			e = &models.EventUsage{EventName: name, Aggregation: models.AggregateSum, Usage: "0", BilledUsage: "0", UnbilledUsage: "0"}
		}
		r.AggregatedUsage = append(r.AggregatedUsage, e)
	}
	r.Usage = totalUsage(r.AggregatedUsage)
	r.Data = r.AggregatedUsage
	return r
}
