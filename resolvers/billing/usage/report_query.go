package usage

import (
	"context"
	"math/big"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
)

// A usage report is one statement: the payer rows (a customer, an account,
// a subscription's payer, a page of customers; or the meters asked, for a
// report over every payer), each joined laterally to its events of the
// window read from the payer index (metering_events_customer_usage_idx,
// _account_idx: the window is a range of the index key, the name, value
// and auto-charge invoice are included columns, so the events are read
// from the index alone; whether an event is billed is metering_events_billed's
// billed_by, its own invoice or a probe of the usage invoice windows'
// index), aggregated per event name, and joined to the name's meter for
// its aggregation. Each aggregation is computed for every name (count,
// sum, max, each also for the billed and the unbilled events) and the
// meter's picks one (reportRow.usage), so the statement does not depend
// on the meters.

// reportQuery describes one report statement.
type reportQuery struct {
	// base is the statement started from the payer rows' table (its
	// tenant scope included), with the rows' own conditions.
	base *bun.SelectQuery
	// alias is base's table alias.
	alias string
	// payers are the payer columns of base each event branch matches:
	// "customer_id" → "cu.id" (a subscription has both, one null). Empty:
	// every payer (base is the meters).
	payers []payerMatch
	// start and end are SQL expressions of the window's bounds over base's
	// row, with their arguments.
	start, end sqlExpr
	// names, when set, are the event names asked: base is joined to their
	// meters and each meter to its events (names without a meter have no
	// event). Without names, every name with events in the window.
	names []string
	// meterBase says base is billing_meters itself (a report over every
	// payer).
	meterBase bool
}

// payerMatch matches an event branch's payer column to a base column.
type payerMatch struct{ eventColumn, baseColumn string }

// sqlExpr is an SQL expression with its arguments.
type sqlExpr struct {
	sql  string
	args []any
}

// constant is a time as an SQL argument.
func constant(t time.Time) sqlExpr { return sqlExpr{sql: "?::timestamptz", args: []any{t}} }

// reportColumns are what every report statement selects per (payer row,
// event name), beside the base columns the caller adds.
const reportColumns = `ev.event_name AS event_name, bm.id AS meter_id, bm.aggregation AS aggregation, bm.product_id AS product_id,
	coalesce(ev.event_count, 0) AS event_count, coalesce(ev.billed_count, 0) AS billed_count,
	ev.total AS total, ev.billed_total AS billed_total,
	ev.top AS top, ev.billed_top AS billed_top, ev.unbilled_top AS unbilled_top`

// eventAggregates are the aggregates of one name's events (alias u).
const eventAggregates = `count(*) AS event_count, count(*) FILTER (WHERE u.billed_by IS NOT NULL) AS billed_count,
	sum(u.value) AS total, sum(u.value) FILTER (WHERE u.billed_by IS NOT NULL) AS billed_total,
	max(u.value) AS top, max(u.value) FILTER (WHERE u.billed_by IS NOT NULL) AS billed_top,
	max(u.value) FILTER (WHERE u.billed_by IS NULL) AS unbilled_top`

// build adds the meters and the events to q.base.
func (q *reportQuery) build() *bun.SelectQuery {
	sel := q.base.ColumnExpr(reportColumns)
	if q.names == nil {
		events, args := q.events("")
		return sel.
			Join("LEFT JOIN LATERAL (SELECT u.event_name, "+eventAggregates+" FROM ("+events+") AS u GROUP BY u.event_name) AS ev ON true", args...).
			Join("LEFT JOIN billing_meters AS bm ON bm.merchant_id = " + q.alias + ".merchant_id AND bm.livemode = " + q.alias +
				".livemode AND bm.event_name = ev.event_name").
			OrderExpr("ev.event_name")
	}
	if q.meterBase {
		sel = sel.Where("bm.event_name IN (?)", bun.In(q.names))
	} else {
		sel = sel.Join("LEFT JOIN billing_meters AS bm ON bm.merchant_id = "+q.alias+".merchant_id AND bm.livemode = "+q.alias+
			".livemode AND bm.event_name IN (?)", bun.In(q.names))
	}
	events, args := q.events("bm.event_name")
	return sel.Join("LEFT JOIN LATERAL (SELECT bm.event_name, "+eventAggregates+" FROM ("+events+") AS u) AS ev ON bm.id IS NOT NULL", args...)
}

// events is the union of one branch per payer column: the events of the
// base row's payer in the window (of the name nameExpr when set). Each
// branch is a range of one payer index.
func (q *reportQuery) events(nameExpr string) (string, []any) {
	payers := q.payers
	if len(payers) == 0 {
		payers = []payerMatch{{}}
	}
	var branches []string
	var args []any
	for _, p := range payers {
		var b strings.Builder
		b.WriteString(`SELECT me.event_name, me.value, me.billed_by FROM metering_events_billed AS me WHERE me.merchant_id = ` +
			q.alias + `.merchant_id AND me.livemode = ` + q.alias + `.livemode`)
		if p.eventColumn != "" {
			b.WriteString(" AND me." + p.eventColumn + " = " + p.baseColumn)
		} else {
			b.WriteString(" AND " + notOfDeletedCustomer)
		}
		b.WriteString(` AND me."timestamp" >= ` + q.start.sql + ` AND me."timestamp" < ` + q.end.sql)
		args = append(append(args, q.start.args...), q.end.args...)
		if nameExpr != "" {
			b.WriteString(" AND me.event_name = " + nameExpr)
		}
		branches = append(branches, b.String())
	}
	return strings.Join(branches, " UNION ALL "), args
}

// notOfDeletedCustomer keeps a deleted customer's events out of a report
// over every payer: a deleted customer has no usage any more (it reports,
// is billed and is credited none), so the mode's totals do not count it.
// One primary key probe per event, in the same statement.
const notOfDeletedCustomer = `NOT EXISTS (SELECT 1 FROM customers AS gone WHERE gone.merchant_id = me.merchant_id
	AND gone.id = me.customer_id AND gone.deleted IS NOT NULL)`

// reportRow is one (payer row, event name) of a report statement, with
// the base columns the report asked (payer, window, batch key).
type reportRow struct {
	Key string `bun:"report_key"`
	// PayerDeleted: the report's one customer is deleted (payerReport).
	PayerDeleted bool       `bun:"payer_deleted"`
	CustomerID   *uuid.UUID `bun:"report_customer_id"`
	AccountID    *uuid.UUID `bun:"report_account_id"`
	PeriodStart  *time.Time `bun:"period_start"`
	PeriodEnd    *time.Time `bun:"period_end"`

	EventName   *string    `bun:"event_name"`
	MeterID     *uuid.UUID `bun:"meter_id"`
	Aggregation *string    `bun:"aggregation"`
	ProductID   *uuid.UUID `bun:"product_id"`
	EventCount  int64      `bun:"event_count"`
	BilledCount int64      `bun:"billed_count"`
	Total       *string    `bun:"total"`
	BilledTotal *string    `bun:"billed_total"`
	Top         *string    `bun:"top"`
	BilledTop   *string    `bun:"billed_top"`
	UnbilledTop *string    `bun:"unbilled_top"`
}

// run executes the statement into rows.
func (q *reportQuery) run(ctx context.Context) ([]reportRow, error) {
	var rows []reportRow
	err := q.build().Scan(ctx, &rows)
	return rows, err
}

// usage is the row's element of aggregated_usage: its meter's aggregation
// picks the aggregate (sum when the name has no meter).
func (r *reportRow) usage() *models.EventUsage {
	agg := models.AggregateSum
	if r.Aggregation != nil {
		agg = models.MeterAggregation(*r.Aggregation)
	}
	total, billed := rat(r.Total), rat(r.BilledTotal)
	u := &models.EventUsage{EventName: *r.EventName, MeterID: r.MeterID, Aggregation: agg, ProductID: r.ProductID,
		EventCount: r.EventCount, BilledEvents: r.BilledCount, UnbilledEvents: r.EventCount - r.BilledCount}
	var all, b, unbilled *big.Rat
	switch agg {
	case models.AggregateCount:
		all, b = big.NewRat(r.EventCount, 1), big.NewRat(r.BilledCount, 1)
		unbilled = big.NewRat(r.EventCount-r.BilledCount, 1)
	case models.AggregateMax:
		all, b, unbilled = rat(r.Top), rat(r.BilledTop), rat(r.UnbilledTop)
	default:
		all, b = total, billed
		unbilled = new(big.Rat).Sub(total, billed)
	}
	u.Usage, u.BilledUsage, u.UnbilledUsage = usageString(all), usageString(b), usageString(unbilled)
	return u
}

// rat reads a numeric column (NULL: zero).
func rat(s *string) *big.Rat {
	if s == nil {
		return new(big.Rat)
	}
	return models.UsageNumber(*s).Rat()
}

// usageString is a usage as its decimal string.
func usageString(r *big.Rat) string { return models.UsageFromRat(r).String() }

// totalUsage is the sum of the elements' usage, as a decimal string.
func totalUsage(elems []*models.EventUsage) string {
	sum := new(big.Rat)
	for _, e := range elems {
		sum.Add(sum, models.UsageNumber(e.Usage).Rat())
	}
	return usageString(sum)
}
