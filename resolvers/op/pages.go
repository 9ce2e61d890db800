package op

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// PagesOf reads, in one statement, one keyset page of the rows of each of
// many parents: the rows whose column names the parent, narrowed by the
// resource's filter (declared once, as for List) and by the keyset (after,
// first) applied to each parent on its own, newest first. It is what a
// connection under a page of parents reads (Account.transfers for a page
// of accounts), so the statement count stays the same for one parent or a
// hundred. parentResource names the parent in the resource_missing of an
// id that does not parse. One page or one error per parent, in order.
func (t *Table[M]) PagesOf(ctx context.Context, k *Kit, column, parentResource string, parentIDs []string,
	filter any, first *int, after *string) ([]Page[*M], []error) {
	p, err := auth.Require(ctx, t.allow()...)
	if err == nil {
		// A bad cursor or filter is the error of every parent asking it.
		_, err = newKeyset(first, after)
	}
	return ByIDs(parentIDs, parentResource, err, nil, func(want []uuid.UUID) (map[uuid.UUID]Page[*M], error) {
		m := t.init(k.DB.Bun)
		ks, _ := newKeyset(first, after)
		// A page of pages: a replica's when the request allows, as List.
		tx := k.DB.ReadTenant(ctx, p.Scope)
		// Each parent's page is ranked in a subquery over the same scope
		// and filter: the page size belongs to each parent, not to the batch.
		ranked := t.Select(tx, p, (*M)(nil)).
			ColumnExpr("?.id AS page_id", bun.Ident(m.alias)).
			ColumnExpr("row_number() OVER (PARTITION BY ?.? ORDER BY ?.created DESC, ?.id DESC) AS page_rank",
				bun.Ident(m.alias), bun.Ident(column), bun.Ident(m.alias), bun.Ident(m.alias)).
			Where("?.? IN (?)", bun.Ident(m.alias), bun.Ident(column), bun.In(want))
		ranked, err := ApplyFilter(ranked, filter)
		if err != nil {
			return nil, err
		}
		if ks.after != nil {
			ranked = ranked.Where("(?.created, ?.id) < (?, ?)", bun.Ident(m.alias), bun.Ident(m.alias), ks.after.Created, ks.after.ID)
		}
		rows, err := store.SelectModels[M](ctx, tx, t.Select(tx, p, (*M)(nil)).
			Where("?.id IN (SELECT page_id FROM (?) AS ranked WHERE page_rank <= ?)", bun.Ident(m.alias), ranked, ks.first+1).
			OrderExpr("?.created DESC, ?.id DESC", bun.Ident(m.alias), bun.Ident(m.alias)))
		if err != nil {
			return nil, err
		}
		if err := t.complete(k, rows...); err != nil {
			return nil, err
		}
		parent := fieldOf(k.DB.Bun, (*M)(nil), column)
		byParent := make(map[uuid.UUID][]*M, len(want))
		for _, r := range rows {
			if id, ok := parentOf(parent, r); ok {
				byParent[id] = append(byParent[id], r)
			}
		}
		out := make(map[uuid.UUID]Page[*M], len(want))
		for _, id := range want {
			out[id] = t.pageOf(byParent[id], ks)
		}
		return out, nil
	})
}

// pageOf makes the keyset page of one parent's rows (first+1 at most, the
// extra one telling that more follow).
func (t *Table[M]) pageOf(rows []*M, ks keyset) Page[*M] {
	page := Page[*M]{HasPrevious: ks.after != nil}
	if len(rows) > ks.first {
		rows, page.HasMore = rows[:ks.first], true
	}
	if rows == nil {
		rows = []*M{}
	}
	page.Items = rows
	page.Cursors, page.IDs = make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		pos := t.Position(r)
		page.Cursors[i], page.IDs[i] = EncodeCursor(pos), pos.ID.String()
	}
	return page
}
