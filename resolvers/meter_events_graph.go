package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/usage"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// BillingMeter.meteringEvents is a page edge: the events of every meter of
// a level in one statement per distinct set of arguments.
var (
	meteringEventPagesOfMeterLoader = loader("meteringEventPagesOfMeter", func(r *Resolver) batch[*op.Page[*models.MeteringEvent]] {
		return pagesOf(func(ctx context.Context, meters []string, a meterEventsArgs) ([]op.Page[*models.MeteringEvent], []error) {
			return r.Svc.Billing.MeteringEvents.PagesOfMeters(ctx, meters,
				usage.MeteringEventFilter{Customer: a.Customer, Account: a.Account}, a.First, a.After)
		})
	})
	_ = pageEdge(meteringEventPagesOfMeterLoader, "meteringEvents", func(m *models.BillingMeter) string { return m.ID.String() })
)

// meterEventsArgs are the arguments of BillingMeter.meteringEvents.
type meterEventsArgs struct {
	First    *int    `json:"first"`
	After    *string `json:"after"`
	Customer *string `json:"customer"`
	Account  *string `json:"account"`
}
