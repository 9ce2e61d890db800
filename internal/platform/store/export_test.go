package store

import (
	"context"
	"reflect"

	"github.com/uptrace/bun"
)

// SelectModelsMisplacing is SelectModels reading column a into b's field
// and b into a's, by a plan of its own (the shared plans stay right): what
// the differential tests must notice.
func SelectModelsMisplacing[M any](ctx context.Context, t *Tenant, q *bun.SelectQuery, a, b string) ([]*M, error) {
	shared := planOf(reflect.TypeFor[M]())
	plan := &modelPlan{table: shared.table, columns: map[string]*columnPlan{}}
	ca, err := shared.column(a)
	if err != nil {
		return nil, err
	}
	cb, err := shared.column(b)
	if err != nil {
		return nil, err
	}
	plan.columns[a], plan.columns[b] = cb, ca
	text, err := q.AppendQuery(q.DB().QueryGen(), nil)
	if err != nil {
		return nil, err
	}
	rows, err := t.pool.Query(ctx, string(text))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanModels[M](plan, rows)
}
