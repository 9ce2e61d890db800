package webhooks

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfObjects reads one page of the events of each of many objects in
// one statement (Account.events, Customer.events under a page of them),
// filtered as the event list is: the events whose object is that object
// itself (events.object_id, by its index), not those of what belongs to
// it. parent names the objects' resource, for the resource_missing of an
// id that does not parse.
func (es *Events) PagesOfObjects(ctx context.Context, parent string, objectIDs []string, f EventFilter,
	first *int, after *string) ([]op.Page[*events.Event], []error) {
	return eventTable.PagesOf(ctx, es.svc.Kit, "object_id", parent, objectIDs, f, first, after)
}
