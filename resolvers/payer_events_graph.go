package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Account.events and Customer.events are page edges: the page of the
// events whose object is the payer itself that each payer's field asks
// (first, after, the event list's type filter), for all the payers of a
// level in one statement per distinct set of arguments.
var (
	eventPagesOfAccountLoader = loader("eventPagesOfAccount", func(r *Resolver) batch[*op.Page[*events.Event]] {
		return pagesOf(func(ctx context.Context, accounts []string, a objectEventsArgs) ([]op.Page[*events.Event], []error) {
			return r.Svc.Webhooks.Events.PagesOfObjects(ctx, "account", accounts, a.filter(), a.First, a.After)
		})
	})
	eventPagesOfCustomerLoader = loader("eventPagesOfCustomer", func(r *Resolver) batch[*op.Page[*events.Event]] {
		return pagesOf(func(ctx context.Context, customers []string, a objectEventsArgs) ([]op.Page[*events.Event], []error) {
			return r.Svc.Webhooks.Events.PagesOfObjects(ctx, "customer", customers, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(eventPagesOfAccountLoader, "events", func(a *models.Account) string { return a.ID.String() })
	_ = pageEdge(eventPagesOfCustomerLoader, "events", func(c *models.Customer) string { return c.ID.String() })
)

// objectEventsArgs are the arguments of Account.events and
// Customer.events.
type objectEventsArgs struct {
	First *int    `json:"first"`
	After *string `json:"after"`
	Type  *string `json:"type"`
}

func (a objectEventsArgs) filter() webhooks.EventFilter { return webhooks.EventFilter{Type: a.Type} }

func eventEdge(cursor string, e *events.Event) *model.EventEdge {
	return &model.EventEdge{Cursor: cursor, Node: e}
}
