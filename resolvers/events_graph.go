package resolvers

import (
	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// eventLoader batches event reads; events are nodes.
var (
	eventLoader = loader("event", func(r *Resolver) loaders.Fetch[*events.Event] { return r.Svc.Webhooks.EventsByIDs })
	_           = node(eventLoader)
)

func eventConnection(page op.Page[*events.Event]) *model.EventConnection {
	edges, info := connect(page, func(c string, e *events.Event) *model.EventEdge {
		return &model.EventEdge{Cursor: c, Node: e}
	})
	return &model.EventConnection{Edges: edges, PageInfo: info}
}
