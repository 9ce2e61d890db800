package usage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A threshold payer's running totals (usage_threshold_totals, one row per
// threshold and event name): the aggregates of the current cycle's
// unbilled events, updated by each ingest in its own transaction with one
// upsert, so that an ingest reads one row per event name instead of the
// cycle's events. Each row keeps what every aggregation needs (the sum of
// the values, the count, the largest value) and the price is joined when
// the rows are read, so the totals stay right when a meter is priced or
// aggregated differently. Sums are exact numeric and the amount they
// price to is checked against the bound on money as the events' own
// aggregate is (cycleUsage).
//
// The totals hold the cycle models.UsageThreshold.TotalsCycle names. They
// are computed from the cycle's events (one statement, O(cycle) once)
// when a threshold is set, when the payer's cycle turns, and after
// anything other than an ingest changed the cycle's unbilled events: a
// usage invoice claiming some of them or a correction marks them stale
// (TotalsCycle NULL) and the next ingest computes them again. An
// auto-charge claims the cycle's priced events and drops their rows in the
// same transaction; a write that fails rolls its totals back with it.
// Every change is made holding the threshold's row lock, taken by the
// ingest FOR UPDATE before it reads the totals (the usage lock, then the
// threshold, as docs/billing.md's lock order says), so concurrent
// ingests add to the totals one after the other.

// thresholdTotal is one row of a threshold's running totals. Its numbers
// are PostgreSQL numeric, carried as decimal text (never a float).
type thresholdTotal struct {
	bun.BaseModel `bun:"table:usage_threshold_totals,alias:t"`
	models.Tenant

	ThresholdID uuid.UUID `bun:"threshold_id,pk,type:uuid"`
	EventName   string    `bun:"event_name,pk"`
	MeterID     uuid.UUID `bun:"meter_id,type:uuid"`
	Events      int64     `bun:"events"`
	// Σ value, Σ value·(100 + markup), Σ (100 + markup).
	SumValue string `bun:"sum_value,type:numeric"`
	SumW100  string `bun:"sum_w100,type:numeric"`
	SumF100  string `bun:"sum_f100,type:numeric"`
	// The largest value (the earliest, then least id, of equals) and its
	// value·(100 + markup).
	TopValue string    `bun:"top_value,type:numeric"`
	TopW100  string    `bun:"top_w100,type:numeric"`
	TopAt    time.Time `bun:"top_at,type:timestamptz"`
	TopID    uuid.UUID `bun:"top_id,type:uuid"`
	Earliest time.Time `bun:"earliest,type:timestamptz"`
}

// f100 is an event's weight times 100 in SQL: 100 plus its markup.
const f100 = "(100 + COALESCE(?::numeric, 0))"

// addToTotals adds ev (just inserted in w) to the threshold's totals: one
// upsert, its weighted amounts computed by PostgreSQL in numeric.
func addToTotals(ctx context.Context, w *op.W, thresholdID uuid.UUID, ev *models.MeteringEvent) error {
	row := &thresholdTotal{ThresholdID: thresholdID, EventName: ev.EventName, MeterID: ev.MeterID, Events: 1,
		SumValue: string(ev.Value), TopValue: string(ev.Value), TopAt: ev.Timestamp.Time, TopID: ev.ID,
		Earliest: ev.Timestamp.Time}
	_, err := w.Tx.Insert(row).
		Value("sum_w100", "?::numeric * "+f100, string(ev.Value), ev.MarkupPercentage).
		Value("top_w100", "?::numeric * "+f100, string(ev.Value), ev.MarkupPercentage).
		Value("sum_f100", f100, ev.MarkupPercentage).
		On("CONFLICT (merchant_id, threshold_id, event_name) DO UPDATE").
		Set("events = t.events + 1").
		Set("sum_value = t.sum_value + EXCLUDED.sum_value").
		Set("sum_w100 = t.sum_w100 + EXCLUDED.sum_w100").
		Set("sum_f100 = t.sum_f100 + EXCLUDED.sum_f100").
		Set("top_value = CASE WHEN " + newTop + " THEN EXCLUDED.top_value ELSE t.top_value END").
		Set("top_w100 = CASE WHEN " + newTop + " THEN EXCLUDED.top_w100 ELSE t.top_w100 END").
		Set("top_at = CASE WHEN " + newTop + " THEN EXCLUDED.top_at ELSE t.top_at END").
		Set("top_id = CASE WHEN " + newTop + " THEN EXCLUDED.top_id ELSE t.top_id END").
		Set("earliest = LEAST(t.earliest, EXCLUDED.earliest)").Exec(ctx)
	return err
}

// newTop holds when the event upserted is the new largest value: larger,
// or equal and earlier (then of the lesser id), as aggregateUsage picks.
const newTop = "(EXCLUDED.top_value > t.top_value OR EXCLUDED.top_value = t.top_value AND " +
	"(EXCLUDED.top_at, EXCLUDED.top_id) < (t.top_at, t.top_id))"

// computeTotals replaces the threshold's totals with the aggregates of the
// payer's unbilled events of the cycle starting at start, and records
// that cycle on the threshold: the events are aggregated by PostgreSQL
// (one statement, one row per event name, from the unbilled events'
// index), then the old rows dropped, the new inserted and the threshold
// updated.
func computeTotals(ctx context.Context, w *op.W, payer *usagePayer, t *models.UsageThreshold, start time.Time) error {
	_, end := models.CycleOf(start)
	src := usageSource{Payer: payer, Start: start, End: end}
	ev := w.Tx.Select((*models.MeteringEvent)(nil)).
		ColumnExpr("me.id, me.event_name, me.meter_id, me.value, me.timestamp, 100 + COALESCE(me.markup_percentage, 0) AS f100").
		ApplyQueryBuilder(src.where)
	top := w.Tx.SelectFrom(bun.Safe("SELECT * FROM ev"), "ev").
		ColumnExpr("DISTINCT ON (ev.event_name) ev.event_name, ev.value, ev.value * ev.f100 AS w100, ev.timestamp, ev.id").
		OrderExpr("ev.event_name, ev.value DESC, ev.timestamp, ev.id")
	var rows []*thresholdTotal
	err := w.Tx.SelectFrom(bun.Safe("SELECT * FROM ev"), "ev").With("ev", ev).With("top", top).
		Join("JOIN top ON top.event_name = ev.event_name").
		ColumnExpr("ev.event_name, min(ev.meter_id::text)::uuid AS meter_id, count(*) AS events").
		ColumnExpr("sum(ev.value)::text AS sum_value, sum(ev.value * ev.f100)::text AS sum_w100, sum(ev.f100)::text AS sum_f100").
		ColumnExpr("min(top.value)::text AS top_value, min(top.w100)::text AS top_w100, min(top.timestamp) AS top_at").
		ColumnExpr("min(top.id::text)::uuid AS top_id, min(ev.timestamp) AS earliest").
		GroupExpr("ev.event_name").OrderExpr("ev.event_name").Scan(ctx, &rows)
	if err != nil {
		return err
	}
	if _, err := w.Tx.Delete((*thresholdTotal)(nil)).Where("t.threshold_id = ?", t.ID).Exec(ctx); err != nil {
		return err
	}
	if len(rows) > 0 {
		for _, r := range rows {
			r.ThresholdID = t.ID
		}
		if _, err := store.InsertModel(w.Tx, rows).Exec(ctx); err != nil {
			return err
		}
	}
	t.TotalsCycle = &start
	_, err = w.Tx.Update(t).Column("totals_cycle").WherePK().Exec(ctx)
	return err
}

// readTotals reads the threshold's totals of priced meters as usage lines
// (one statement, one row per event name), as aggregateUsage aggregates
// the events they hold.
func readTotals(ctx context.Context, tx *store.Tenant, thresholdID uuid.UUID) ([]*usageLine, error) {
	var rows []usageAggregate
	err := tx.Select((*thresholdTotal)(nil)).Join("JOIN "+totalsPricedJoin).Where("t.threshold_id = ?", thresholdID).
		ColumnExpr("t.event_name, t.meter_id, bm.aggregation, bm.product_id, pr.default_price, pr.name AS product_name").
		ColumnExpr("t.events, t.earliest").
		ColumnExpr("(CASE bm.aggregation WHEN ? THEN t.events::numeric WHEN ? THEN t.top_value ELSE t.sum_value END)::text AS usage",
			models.AggregateCount, models.AggregateMax).
		ColumnExpr("(CASE bm.aggregation WHEN ? THEN t.sum_f100 WHEN ? THEN t.top_w100 ELSE t.sum_w100 END)::text AS weighted100",
			models.AggregateCount, models.AggregateMax).
		OrderExpr("t.event_name").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	return usageLines(rows), nil
}

// totalsPricedJoin joins a totals row (alias t) to its meter and the
// meter's product, which must exist: the usage is priced.
const totalsPricedJoin = "billing_meters AS bm ON bm.merchant_id = t.merchant_id AND bm.livemode = t.livemode AND bm.id = t.meter_id " +
	"JOIN products AS pr ON pr.merchant_id = bm.merchant_id AND pr.livemode = bm.livemode AND pr.id = bm.product_id"

// dropChargedTotals drops from the threshold's totals the event names
// the auto-charge invoiceID billed: it claimed, in this transaction, every
// unbilled event of the cycle of those names (those of priced meters).
// Rows of other names stay: their events are not billed (a meter without
// a product), whatever happens to the meters meanwhile.
func dropChargedTotals(ctx context.Context, w *op.W, thresholdID, invoiceID uuid.UUID) error {
	billed := w.Tx.Select((*models.InvoiceLineItem)(nil)).Column("li.event_name").
		Where("li.invoice_id = ?", invoiceID).Where("li.event_name IS NOT NULL")
	_, err := w.Tx.Delete((*thresholdTotal)(nil)).Where("t.threshold_id = ?", thresholdID).
		Where("t.event_name IN (?)", billed).Exec(ctx)
	return err
}

// staleTotals marks the totals of the payer's threshold (if any) to be
// computed again by the next ingest: something other than an ingest
// changed the payer's unbilled events. One statement, taking the
// threshold's row lock after the usage lock, as an ingest does.
func staleTotals(ctx context.Context, w *op.W, payer *usagePayer) error {
	_, err := w.Tx.Update((*models.UsageThreshold)(nil)).Set("totals_cycle = NULL").
		Where("?TableAlias.? = ?", payerColumn(payer), payer.ID()).Where("totals_cycle IS NOT NULL").Exec(ctx)
	return err
}
