package op

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Children declares an edge from many parents to their rows of a table,
// read for a whole batch of parents in one statement (a dataloader's
// batch: Transfer.refunds for a page of transfers):
//
//	var refundsOfTransfers = &op.Children[models.Refund]{
//		Table: refunds, Parent: "transfer", Column: "transfer_id", Limit: 100}
type Children[M any] struct {
	Table *Table[M]
	// Parent names the parent resource in a resource_missing error for an
	// id that does not parse ("transfer").
	Parent string
	// Column is the child's column naming its parent ("transfer_id").
	Column string
	// Limit keeps the newest Limit rows of each parent (0: all of them).
	Limit int
	// Where narrows the children (payment methods still usable).
	Where func(q *bun.SelectQuery) *bun.SelectQuery
	// Order orders each parent's rows when not newest first, as SQL over
	// the table's alias ("?TableAlias.ordinal ASC").
	Order string
	// Sees, when set, tells from a parent's id alone whether p may see the
	// parent (a session secret, its own account only): a parent it refuses
	// is resource_missing without a statement.
	Sees func(p *auth.Principal, parentID uuid.UUID) bool

	once  sync.Once
	field *schema.Field
}

// Load reads the children of the parents, one list per parent in the order
// asked (empty when it has none).
func (c *Children[M]) Load(ctx context.Context, k *Kit, parentIDs []string) ([][]*M, []error) {
	t := c.Table
	p, err := auth.Require(ctx, t.allow()...)
	var visible func(uuid.UUID) bool
	if c.Sees != nil && p != nil {
		visible = func(id uuid.UUID) bool { return c.Sees(p, id) }
	}
	return ByIDs(parentIDs, c.Parent, err, visible, func(want []uuid.UUID) (map[uuid.UUID][]*M, error) {
		m := t.init(k.DB.Bun)
		c.once.Do(func() { c.field = fieldOf(k.DB.Bun, (*M)(nil), c.Column) })
		sc := p.Scope
		tx := k.DB.Tenant(sc)
		q := t.Select(tx, p, (*M)(nil)).Where("?.? IN (?)", bun.Ident(m.alias), bun.Ident(c.Column), bun.In(want))
		if c.Where != nil {
			q = c.Where(q)
		}
		order := "?TableAlias.created DESC, ?TableAlias.id DESC"
		if c.Order != "" {
			order = c.Order
		}
		if c.Limit > 0 {
			// The newest Limit of each parent, ranked in a subquery over
			// the same scope (the limit belongs to each parent, not to
			// the batch).
			q = q.Where("?.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.? ORDER BY x.created DESC, x.id DESC) AS n "+
				"FROM ? AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.? IN (?)) AS ranked WHERE n <= ?)",
				bun.Ident(m.alias), bun.Ident(c.Column), bun.Ident(tableName(k.DB.Bun, (*M)(nil))), sc.MerchantID, sc.Livemode,
				bun.Ident(c.Column), bun.In(want), c.Limit)
		}
		rows, err := store.SelectModels[M](ctx, tx, q.OrderExpr(order))
		if err != nil {
			return nil, err
		}
		if err := t.complete(k, rows...); err != nil {
			return nil, err
		}
		out := make(map[uuid.UUID][]*M, len(want))
		for _, id := range want {
			out[id] = []*M{}
		}
		for _, r := range rows {
			if id, ok := parentOf(c.field, r); ok {
				out[id] = append(out[id], r)
			}
		}
		return out, nil
	})
}

// parentOf reads the parent id of row (a uuid.UUID or a *uuid.UUID).
func parentOf(f *schema.Field, row any) (uuid.UUID, bool) {
	switch v := f.Value(reflect.ValueOf(row).Elem()).Interface().(type) {
	case uuid.UUID:
		return v, true
	case *uuid.UUID:
		if v == nil {
			return uuid.Nil, false
		}
		return *v, true
	default:
		panic(fmt.Sprintf("op: parent column %s is a %T", f.Name, v))
	}
}

func fieldOf(db *bun.DB, model any, name string) *schema.Field {
	return column(db.Table(reflect.TypeOf(model).Elem()), name)
}

func tableName(db *bun.DB, model any) string {
	return db.Table(reflect.TypeOf(model).Elem()).Name
}
