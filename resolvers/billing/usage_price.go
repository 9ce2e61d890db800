package billing

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

// pricedEvent is an unbilled event of a priced meter, with what prices it:
// its meter's aggregation and product (one unit at default_price).
type pricedEvent struct {
	ID          uuid.UUID               `bun:"id"`
	EventName   string                  `bun:"event_name"`
	MeterID     uuid.UUID               `bun:"meter_id"`
	Value       models.UsageNumber      `bun:"value"`
	Markup      *models.UsageNumber     `bun:"markup_percentage"`
	Timestamp   time.Time               `bun:"timestamp"`
	Aggregation models.MeterAggregation `bun:"aggregation"`
	ProductID   uuid.UUID               `bun:"product_id"`
	Price       int64                   `bun:"default_price"`
	ProductName string                  `bun:"product_name"`
}

// unbilledPriced reads the payer's events not yet billed whose timestamp
// falls in [from, to) and whose meter has a product (names, when given,
// narrows the event names), by name then time: one statement. Events of a
// meter without a product are reported, never billed.
func unbilledPriced(ctx context.Context, tx *store.Tenant, payer *usagePayer, from, to time.Time, names []string) ([]pricedEvent, error) {
	var rows []pricedEvent
	q := tx.Select((*models.MeteringEvent)(nil)).
		ColumnExpr("me.id, me.event_name, me.meter_id, me.value, me.markup_percentage, me.timestamp").
		ColumnExpr("bm.aggregation, bm.product_id, pr.default_price, pr.name AS product_name").
		Join("JOIN billing_meters AS bm ON bm.merchant_id = me.merchant_id AND bm.livemode = me.livemode AND bm.id = me.meter_id").
		Join("JOIN products AS pr ON pr.merchant_id = bm.merchant_id AND pr.livemode = bm.livemode AND pr.id = bm.product_id").
		Where("me.timestamp >= ?", from).Where("me.timestamp < ?", to).Where("me.invoice_id IS NULL")
	q = payer.Where(q)
	if len(names) > 0 {
		q = q.Where("me.event_name IN (?)", bun.In(names))
	}
	err := q.OrderExpr("me.event_name, me.timestamp, me.id").Scan(ctx, &rows)
	return rows, err
}

// usageLine is one event name's priced usage in a window: the events it
// bills, aggregated by its meter.
type usageLine struct {
	EventName   string
	MeterID     uuid.UUID
	Aggregation models.MeterAggregation
	ProductID   uuid.UUID
	ProductName string
	Price       int64
	Totals      usage.Totals
	Events      []uuid.UUID
	// Earliest is the timestamp of the line's oldest event.
	Earliest time.Time
}

// usageLines groups events (ordered by name then time) into one line per
// event name, aggregated as the name's meter says.
func usageLines(events []pricedEvent) []*usageLine {
	var lines []*usageLine
	var batch []usage.Event
	flush := func() {
		if len(lines) > 0 {
			l := lines[len(lines)-1]
			l.Totals = usage.Aggregate(usage.Aggregation(l.Aggregation), batch)
		}
		batch = nil
	}
	for _, e := range events {
		if len(lines) == 0 || lines[len(lines)-1].EventName != e.EventName {
			flush()
			lines = append(lines, &usageLine{EventName: e.EventName, MeterID: e.MeterID, Aggregation: e.Aggregation, ProductID: e.ProductID,
				ProductName: e.ProductName, Price: e.Price, Earliest: e.Timestamp})
		}
		l := lines[len(lines)-1]
		l.Events = append(l.Events, e.ID)
		ue := usage.Event{Value: e.Value.Rat()}
		if e.Markup != nil {
			ue.Markup = e.Markup.Rat()
		}
		batch = append(batch, ue)
	}
	flush()
	return lines
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
