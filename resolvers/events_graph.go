package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// eventLoader batches event reads; events are nodes.
var (
	eventLoader = nodeLoader("event", func(r *Resolver) batch[*events.Event] { return r.Svc.Webhooks.Events.ByIDs })
)

func eventList(ctx context.Context, r *Resolver, f webhooks.EventFilter, first *int, after *string) (*model.EventConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Webhooks.Events.List, f, first, after, eventLoader,
		func(c string, e *events.Event) *model.EventEdge { return &model.EventEdge{Cursor: c, Node: e} })
	return &model.EventConnection{Edges: edges, PageInfo: info}, err
}
