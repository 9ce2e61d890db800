package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// connection serves a connection from a resource's one list (its service's
// List): the page the filter and the keyset arguments ask for, each object
// primed in the resource's loader (so later edges to it cost nothing),
// mapped onto the generated edge type.
func connection[F, T, E any](ctx context.Context, list func(context.Context, F, op.ListParams) (op.Page[T], error),
	f F, first *int, after *string, key loaders.Key[T], edge func(cursor string, node T) E) ([]E, *model.PageInfo, error) {
	page, err := list(ctx, f, keyset(first, after))
	if err != nil {
		return nil, nil, err
	}
	for i, item := range page.Items {
		key.Prime(ctx, page.IDs[i], item)
	}
	edges, info := connect(page, edge)
	return edges, info, nil
}

// filterOf converts a generated GraphQL filter input into the operation
// layer's filter of the same fields (nil: no filter).
func filterOf[F any, G any](g *G, convert func(G) F) F {
	var f F
	if g != nil {
		f = convert(*g)
	}
	return f
}

// firstPageOf serves the first page of a parent's connection from the
// rows a children batch read for the parents of a whole level (the newest
// limit of each parent, newest first): no statement of its own. ok is
// false when the page cannot be told from the batch (a page as large as
// the batch, a cursor): the caller then lists.
func firstPageOf[M any](rows []*M, first *int, after *string, limit int, pos func(*M) op.Position) (page op.Page[*M], ok bool) {
	n := 10
	if first != nil {
		n = *first
	}
	if after != nil || n < 1 || n >= limit {
		return page, false
	}
	if len(rows) > n {
		rows, page.HasMore = rows[:n], true
	}
	page.Items = rows
	page.Cursors, page.IDs = make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		p := pos(r)
		page.Cursors[i], page.IDs[i] = op.EncodeCursor(p), p.ID.String()
	}
	return page, true
}
