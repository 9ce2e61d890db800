package usage

import (
	"context"
	"math/big"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/usage"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// usageSource is the predicate naming a payer's unbilled priced usage:
// its events whose timestamp falls in [Start, End), not yet billed, whose
// meter has a product (Names, when given, narrows the event names).
// Events of a meter without a product are reported, never billed. The
// same predicate reads the usage (a threshold's progress, a usage
// invoice's window) and claims it (an auto-charge): the work is the
// database's, never one row per event here.
type usageSource struct {
	Payer      *usagePayer
	Start, End time.Time
	Names      []string
	// NewWindow: the source is the window a usage invoice is about to
	// record, holding the payer's usage lock exclusively, and no recorded
	// window of its names overlaps it (refused before): none of its events
	// is billed by a window, so only an auto-charge's own mark is checked
	// and the read stays a range of the unbilled events' index.
	NewWindow bool
}

// notBilledByWindow keeps the events (alias me) no usage invoice window
// holds, as metering_events_billed says: one primary key probe of the view
// per candidate event.
const notBilledByWindow = `NOT EXISTS (SELECT 1 FROM metering_events_billed AS b
	WHERE b.merchant_id = me.merchant_id AND b.id = me.id AND b.billed_by IS NOT NULL)`

// pricedJoin joins an event (alias me) to its meter and the meter's
// product, which must exist: the usage is priced.
const pricedJoin = "billing_meters AS bm ON bm.merchant_id = me.merchant_id AND bm.livemode = me.livemode AND bm.id = me.meter_id " +
	"JOIN products AS pr ON pr.merchant_id = bm.merchant_id AND pr.livemode = bm.livemode AND pr.id = bm.product_id"

// pricedColumns are what an event brings to its line's aggregate: f100 is
// 100 plus its markup percentage (its weight, times 100, kept as an exact
// numeric product rather than a division).
const pricedColumns = "me.id, me.event_name, me.meter_id, me.value, me.timestamp, " +
	"100 + COALESCE(me.markup_percentage, 0) AS f100, bm.aggregation, bm.product_id, pr.default_price, pr.name AS product_name"

// where narrows q, a query on metering_events aliased me, to the source's
// events.
func (s usageSource) where(q bun.QueryBuilder) bun.QueryBuilder {
	q = q.Where("me.? = ?", bun.Ident(s.Payer.Column()), s.Payer.ID()).
		Where("me.timestamp >= ?", s.Start).Where("me.timestamp < ?", s.End).Where("me.invoice_id IS NULL")
	if !s.NewWindow {
		q = q.Where(notBilledByWindow)
	}
	if len(s.Names) > 0 {
		q = q.Where("me.event_name IN (?)", bun.In(s.Names))
	}
	return q
}

// readUsage aggregates the source's events into one line per event name,
// without claiming them: one statement. A new window (a usage invoice's)
// reads its whole hours from the rollups (readWindow).
func readUsage(ctx context.Context, tx *store.Tenant, s usageSource) ([]*usageLine, error) {
	if s.NewWindow {
		return readWindow(ctx, tx, s)
	}
	q := tx.Select((*models.MeteringEvent)(nil)).ColumnExpr(pricedColumns).Join("JOIN " + pricedJoin)
	return aggregateUsage(ctx, tx, q.ApplyQueryBuilder(s.where), nil)
}

// claimUsage makes invoiceID the invoice of the source's events and
// aggregates exactly the events it claimed into one line per event name:
// one statement (an UPDATE by the source's predicate, whatever the number
// of events), so a line bills the values its events hold when claimed.
// Auto-charges claim so (they bill events, not a window); a usage invoice
// reads its window (readUsage) and records it instead.
func claimUsage(ctx context.Context, tx *store.Tenant, s usageSource, invoiceID uuid.UUID, now time.Time) ([]*usageLine, error) {
	q := tx.Update((*models.MeteringEvent)(nil)).Set("invoice_id = ?", invoiceID).Set("updated = ?", now).
		TableExpr("billing_meters AS bm").TableExpr("products AS pr").
		Where("bm.merchant_id = me.merchant_id AND bm.livemode = me.livemode AND bm.id = me.meter_id").
		Where("pr.merchant_id = bm.merchant_id AND pr.livemode = bm.livemode AND pr.id = bm.product_id").
		Returning(pricedColumns)
	return aggregateUsage(ctx, tx, q.ApplyQueryBuilder(s.where), nil)
}

// usageAggregate is one event name's aggregate, as PostgreSQL sums it in
// numeric (exact, never wrapping): its usage U and its weighted usage
// times 100 (W·100), as decimal text.
type usageAggregate struct {
	EventName   string                  `bun:"event_name"`
	MeterID     uuid.UUID               `bun:"meter_id"`
	Aggregation models.MeterAggregation `bun:"aggregation"`
	ProductID   uuid.UUID               `bun:"product_id"`
	Price       int64                   `bun:"default_price"`
	ProductName string                  `bun:"product_name"`
	Events      int64                   `bun:"events"`
	Earliest    time.Time               `bun:"earliest"`
	Usage       string                  `bun:"usage"`
	Weighted100 string                  `bun:"weighted100"`
}

// aggregateUsage aggregates the events ev yields (pricedColumns), and the
// rollups rolled yields when not nil (rollupColumns: sum and count meters
// only), per event name, as the name's meter says: sum adds the values
// (weighted: Σ value·(100+m)), count counts the events (Σ (100+m)), max
// keeps the largest value, the earliest of equals (its value·(100+m)), so
// a max meter's events all come through ev. Each event is a part of one
// event; a rollup is a part of its hour's. One row per event name reaches
// Go, in name order.
func aggregateUsage(ctx context.Context, tx *store.Tenant, ev bun.Query, rolled *bun.SelectQuery) ([]*usageLine, error) {
	top := tx.SelectFrom(bun.Safe("SELECT * FROM ev"), "ev").
		ColumnExpr("DISTINCT ON (ev.event_name) ev.event_name, ev.value * ev.f100 AS w100").
		Where("ev.aggregation = ?", models.AggregateMax).OrderExpr("ev.event_name, ev.value DESC, ev.timestamp, ev.id")
	parts := tx.SelectFrom(bun.Safe("SELECT * FROM ev"), "ev").ColumnExpr(eventPartColumns)
	if rolled != nil {
		parts = parts.UnionAll(rolled)
	}
	var rows []usageAggregate
	err := tx.SelectFrom(bun.Safe("SELECT * FROM parts"), "p").With("ev", ev).With("top", top).With("parts", parts).
		Join("LEFT JOIN top ON top.event_name = p.event_name").
		ColumnExpr("p.event_name, p.meter_id, p.aggregation, p.product_id, p.default_price, p.product_name").
		ColumnExpr("sum(p.events)::bigint AS events, min(p.earliest) AS earliest").
		ColumnExpr("(CASE p.aggregation WHEN ? THEN sum(p.events)::numeric WHEN ? THEN max(p.sum_value) ELSE sum(p.sum_value) END)::text AS usage",
			models.AggregateCount, models.AggregateMax).
		ColumnExpr("(CASE p.aggregation WHEN ? THEN sum(p.sum_f100) WHEN ? THEN max(top.w100) ELSE sum(p.sum_w100) END)::text AS weighted100",
			models.AggregateCount, models.AggregateMax).
		GroupExpr("p.event_name, p.meter_id, p.aggregation, p.product_id, p.default_price, p.product_name").
		Having("sum(p.events) > 0").OrderExpr("p.event_name").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	return usageLines(rows), nil
}

// eventPartColumns are one event (of ev) as a part of its line: one event,
// its value, weighted value and weight.
const eventPartColumns = "ev.event_name, ev.meter_id, ev.aggregation, ev.product_id, ev.default_price, ev.product_name, " +
	"1::bigint AS events, ev.value AS sum_value, ev.value * ev.f100 AS sum_w100, ev.f100 AS sum_f100, ev.timestamp AS earliest"

// usageLines are the lines of aggregates (one per event name): the
// weighted usage divided by 100 exactly.
func usageLines(rows []usageAggregate) []*usageLine {
	lines := make([]*usageLine, len(rows))
	for i, r := range rows {
		weighted := decimalRat(r.Weighted100)
		lines[i] = &usageLine{EventName: r.EventName, MeterID: r.MeterID, Aggregation: r.Aggregation, ProductID: r.ProductID,
			ProductName: r.ProductName, Price: r.Price, Events: r.Events, Earliest: r.Earliest,
			Totals: usage.Totals{Usage: decimalRat(r.Usage), Weighted: weighted.Quo(weighted, hundred)}}
	}
	return lines
}

var hundred = big.NewRat(100, 1)

// decimalRat is PostgreSQL's numeric text as an exact fraction.
func decimalRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return new(big.Rat)
	}
	return r
}

// usageLine is one event name's priced usage in a window, aggregated by
// its meter.
type usageLine struct {
	EventName   string
	MeterID     uuid.UUID
	Aggregation models.MeterAggregation
	ProductID   uuid.UUID
	ProductName string
	Price       int64
	Totals      usage.Totals
	// Events is how many events the line aggregates.
	Events int64
	// Earliest is the timestamp of the line's oldest event.
	Earliest time.Time
}

// amount is what the line charges once credits units are applied
// (limited: the payer's limited pools cap the usage charged); ok is false
// beyond the bound on money.
func (l *usageLine) amount(credits *big.Rat, limited bool) (int64, bool) {
	return usage.Amount(l.Price, l.Totals, usage.Charged(l.Totals.Usage, credits, limited))
}

// grossAmount is what the line would charge with no credit applied (the
// threshold's accumulation); ok is false beyond the bound on money.
func (l *usageLine) grossAmount() (int64, bool) { return l.amount(new(big.Rat), false) }

// productsOf are the products pricing lines, once each.
func productsOf(lines []*usageLine) []uuid.UUID {
	seen := map[uuid.UUID]bool{}
	var out []uuid.UUID
	for _, l := range lines {
		if !seen[l.ProductID] {
			seen[l.ProductID] = true
			out = append(out, l.ProductID)
		}
	}
	return out
}
