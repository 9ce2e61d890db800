package usage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// rollupSpan is the length of a rollup's bucket (migration 00053's
// usage_bucket: the UTC hour of the event's timestamp).
const rollupSpan = time.Hour

// usageRollup is the aggregate of a payer's events of one event name and
// meter in one hour that no auto-charge claimed (usage_rollups), kept by
// the database with every write of the events.
type usageRollup struct {
	bun.BaseModel `bun:"table:usage_rollups,alias:ur"`
	models.Tenant

	PayerID   uuid.UUID `bun:"payer_id,pk,type:uuid"`
	EventName string    `bun:"event_name,pk"`
	MeterID   uuid.UUID `bun:"meter_id,pk,type:uuid"`
	Bucket    time.Time `bun:"bucket,pk"`
	Events    int64     `bun:"events"`
	SumValue  string    `bun:"sum_value,type:numeric"`
	SumW100   string    `bun:"sum_w100,type:numeric"`
	SumF100   string    `bun:"sum_f100,type:numeric"`
}

// wholeHours is the span [from, to) of the hours lying wholly inside
// [start, end): from is start rounded up to the hour, to is end rounded
// down. When from ≥ to no hour lies wholly inside and every event of the
// window is an edge event.
func wholeHours(start, end time.Time) (from, to time.Time) {
	from, to = start.Truncate(rollupSpan), end.Truncate(rollupSpan)
	if from.Before(start) {
		from = from.Add(rollupSpan)
	}
	return from, to
}

// rollupColumns are a rollup (alias ur, its meter bm and product pr) as a
// part of its line: its hour's events, sums and weights; its hour stands
// for its earliest event (a usage invoice's line does not use it).
const rollupColumns = "ur.event_name, ur.meter_id, bm.aggregation, bm.product_id, pr.default_price, pr.name AS product_name, " +
	"ur.events, ur.sum_value, ur.sum_w100, ur.sum_f100, ur.bucket AS earliest"

// readWindow aggregates a new window's usage in one statement that reads
// O(hours), not O(events): the rollups of the hours wholly inside the
// window (sum and count meters), plus the events of its partial edge hours
// (two ranges of the unbilled events' index) and, when the merchant prices
// a max meter, every event of the window's whole hours of such a meter (a
// maximum cannot be kept under the subtraction of claimed events; a
// one-time filter skips that range otherwise). The window holds no event a
// window billed (s.NewWindow), so its rollups hold exactly its unclaimed
// events.
func readWindow(ctx context.Context, tx *store.Tenant, s usageSource) ([]*usageLine, error) {
	from, to := wholeHours(s.Start, s.End)
	events := func() *bun.SelectQuery {
		return tx.Select((*models.MeteringEvent)(nil)).ColumnExpr(pricedColumns).Join("JOIN " + pricedJoin).ApplyQueryBuilder(s.where)
	}
	ev := events().Where("me.timestamp < ?", from).
		UnionAll(events().Where("me.timestamp >= ?", to).Where("me.timestamp >= ?", from)).
		UnionAll(events().Where("me.timestamp >= ?", from).Where("me.timestamp < ?", to).
			Where("bm.aggregation = ?", models.AggregateMax).
			Where("EXISTS (SELECT 1 FROM billing_meters AS mx WHERE mx.merchant_id = ? AND mx.livemode = ? AND mx.aggregation = ? "+
				"AND mx.product_id IS NOT NULL)", tx.Scope().MerchantID, tx.Scope().Livemode, models.AggregateMax))
	rolled := tx.Select((*usageRollup)(nil)).ColumnExpr(rollupColumns).
		Join("JOIN billing_meters AS bm ON bm.merchant_id = ur.merchant_id AND bm.livemode = ur.livemode AND bm.id = ur.meter_id").
		Join("JOIN products AS pr ON pr.merchant_id = bm.merchant_id AND pr.livemode = bm.livemode AND pr.id = bm.product_id").
		Where("ur.payer_id = ?", s.Payer.ID()).Where("ur.bucket >= ?", from).Where("ur.bucket < ?", to).
		Where("bm.aggregation <> ?", models.AggregateMax).Where("ur.events <> 0")
	if len(s.Names) > 0 {
		rolled = rolled.Where("ur.event_name IN (?)", bun.In(s.Names))
	}
	return aggregateUsage(ctx, tx, ev, rolled)
}
