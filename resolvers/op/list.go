package op

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// ListParams selects one page of a list, newest first. REST asks by page
// number (PageParams); GraphQL asks by keyset (Keyset with First and After).
type ListParams struct {
	models.PageParams
	Keyset bool
	First  *int
	After  *string
}

// Page is one page of a list, as either transport asks for it.
type Page[T any] struct {
	Items []T
	// HasMore says whether rows follow this page (has_more, hasNextPage).
	HasMore bool
	// Params is the page-number request served (REST).
	Params models.PageParams
	// Keyset pages only: whether the page started after a cursor, and the
	// cursor and the id of each item (a connection primes its loader by id).
	HasPrevious bool
	Cursors     []string
	IDs         []string
}

// Meta builds the REST meta block for a page-numbered page served at url.
func (p Page[T]) Meta(url string) models.ListMeta {
	return models.Page[T]{Items: p.Items, Params: p.Params, HasMore: p.HasMore}.Meta(url)
}

// Position is where a row stands in the newest-first order of every list:
// (created, id), both descending.
type Position struct {
	Created time.Time
	ID      uuid.UUID
}

// List runs the one list query of a resource in tx: q is the resource's
// select, already scoped and filtered; alias is its table alias; pos gives
// a row's position. It orders newest first, fetches one look-ahead row (so
// has_more needs no count) and pages by number or by keyset as lp asks.
// Every list of every resource, REST page, search and GraphQL connection
// alike, goes through here; its rows are read by store.SelectModels.
func List[M any](ctx context.Context, tx *store.Tenant, q *bun.SelectQuery, alias string, lp ListParams, pos func(*M) Position) (Page[*M], error) {
	q = q.OrderExpr("?.created DESC, ?.id DESC", bun.Ident(alias), bun.Ident(alias))
	if !lp.Keyset {
		pp := lp.PageParams.Normalized()
		rows, err := store.SelectModels[M](ctx, tx, pp.Apply(q))
		if err != nil {
			return Page[*M]{}, err
		}
		page := models.NewPage(rows, pp)
		return Page[*M]{Items: page.Items, HasMore: page.HasMore, Params: pp}, nil
	}
	k, err := newKeyset(lp.First, lp.After)
	if err != nil {
		return Page[*M]{}, err
	}
	if k.after != nil {
		q = q.Where("(?.created, ?.id) < (?, ?)", bun.Ident(alias), bun.Ident(alias), k.after.Created, k.after.ID)
	}
	rows, err := store.SelectModels[M](ctx, tx, q.Limit(int64(k.first)+1))
	if err != nil {
		return Page[*M]{}, err
	}
	page := Page[*M]{HasPrevious: k.after != nil}
	if len(rows) > k.first {
		rows, page.HasMore = rows[:k.first], true
	}
	if rows == nil {
		rows = []*M{}
	}
	page.Items = rows
	page.Cursors = make([]string, len(rows))
	page.IDs = make([]string, len(rows))
	for i, r := range rows {
		p := pos(r)
		page.Cursors[i], page.IDs[i] = EncodeCursor(p), p.ID.String()
	}
	return page, nil
}
