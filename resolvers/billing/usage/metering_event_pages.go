package usage

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfMeters reads one page of the metering events of each of many
// meters in one statement (BillingMeter.meteringEvents), newest first,
// filtered as REST's metering event list is (customer, account; the event
// name is the meter's own).
func (es *MeteringEvents) PagesOfMeters(ctx context.Context, meterIDs []string, f MeteringEventFilter,
	first *int, after *string) ([]op.Page[*models.MeteringEvent], []error) {
	f.EventName = nil
	return meteringEventTable.PagesOf(ctx, es.svc.Kit, "meter_id", "billing_meter", meterIDs, f, first, after)
}
