package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/models"
)

// EventConnection is the GraphQL events list: the caller's events, newest
// first, optionally of one type, keyset-paginated on (created, id). One
// statement.
func (r *Resolver) EventConnection(ctx context.Context, first *int, after *string, typ *string) (*model.EventConnection, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	k, err := newKeysetRequest(first, after)
	if err != nil {
		return nil, err
	}
	var rows []*models.Event
	q := r.DB.Tenant(p.Scope).Select(&rows)
	if typ != nil {
		q = q.Where("e.type = ?", *typ)
	}
	if err := k.apply(q, "e").Scan(ctx); err != nil {
		return nil, err
	}
	cursor := func(e *models.Event) string { return encodeCursor(e.Created.Time, e.ID) }
	rows, info := keysetPage(k, rows, cursor)
	conn := &model.EventConnection{Edges: make([]*model.EventEdge, len(rows)), PageInfo: info}
	for i, e := range rows {
		conn.Edges[i] = &model.EventEdge{Cursor: cursor(e), Node: e}
	}
	return conn, nil
}
