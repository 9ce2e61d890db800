package store

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/uptrace/bun"
)

// SelectModels runs q, a select of M's rows built from t's starters (Select
// and the conditions after it), and reads every row into a new *M.
//
// Over the pool (a Tenant of DB.Tenant or DB.ReadTenant) the statement Bun
// writes is sent as it is through pgx, counted and recorded like every
// other (StatementCount, the statement recorder), traced by the pool's
// tracer like Bun's, and its rows are decoded by pgx's typed decoding
// straight into the models' fields (rowplan.go): none of database/sql's
// conversion of every column into a driver.Value and again for Bun's
// scanners, nor Bun's per-row reflection, which were most of a small
// list's cost (docs/performance.md, "Rows read straight from pgx"). The
// errors are the driver's own, as through Bun (errors.go, unavailable.go).
//
// Inside a transaction (a Tenant of Tx), for a model with a has-many
// relation (which Bun reads with a statement of its own), and for a
// context of WithBunScan, Bun reads the rows as before.
func SelectModels[M any](ctx context.Context, t *Tenant, q *bun.SelectQuery) ([]*M, error) {
	plan := planOf(reflect.TypeFor[M]())
	if t.pool == nil || plan.fallback != "" || bunScanAsked(ctx) {
		var rows []*M
		if err := q.Scan(ctx, &rows); err != nil {
			return nil, err
		}
		return rows, nil
	}
	text, err := q.AppendQuery(q.DB().QueryGen(), nil)
	if err != nil {
		return nil, err
	}
	query := string(text)
	countStatement(ctx, query)
	rows, err := t.pool.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := scanModels[M](plan, rows)
	if err != nil {
		return nil, err
	}
	return out, rows.Err()
}

// scanModels reads every row of rows into a new *M by plan.
func scanModels[M any](plan *modelPlan, rows pgx.Rows) ([]*M, error) {
	fields := rows.FieldDescriptions()
	columns := make([]*columnPlan, len(fields))
	for i, fd := range fields {
		c, err := plan.column(fd.Name)
		if err != nil {
			return nil, err
		}
		columns[i] = c
	}
	typeMap := rows.Conn().TypeMap()
	// A column's scan plan depends on its type and its destination's, the
	// same on every row: planned on its first non-NULL value.
	scans := make([]pgtype.ScanPlan, len(fields))
	var out []*M
	for rows.Next() {
		row := new(M)
		raw := rows.RawValues()
		for i, c := range columns {
			src := raw[i]
			if src == nil && !c.scansNull {
				continue
			}
			at := c.locate(unsafe.Pointer(row), src != nil)
			if at == nil {
				continue
			}
			dst := pointerAt(c.dest, at)
			if scans[i] == nil {
				scans[i] = typeMap.PlanScan(fields[i].DataTypeOID, fields[i].Format, dst)
			}
			if err := scans[i].Scan(src, dst); err != nil {
				return nil, fmt.Errorf("store: scan column %s of %s: %w", c.name, plan.table.TypeName, err)
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// locate is the address of the column's field in the row at row: the
// structs behind pointers on the way are allocated when value (the column
// is not NULL) and nil is answered for a NULL behind a nil pointer, as
// Bun leaves a relation none of whose columns is set.
func (c *columnPlan) locate(row unsafe.Pointer, value bool) unsafe.Pointer {
	at := row
	for _, h := range c.hops {
		slot := (*unsafe.Pointer)(unsafe.Add(at, h.offset))
		if *slot == nil {
			if !value {
				return nil
			}
			*slot = reflect.New(h.alloc).UnsafePointer()
		}
		at = *slot
	}
	return unsafe.Add(at, c.offset)
}

type bunScanKey struct{}

// WithBunScan returns a context whose SelectModels reads rows through Bun
// as before: the reference the reading straight from pgx is compared
// against, row by row and field by field, in the tests of every read it
// serves.
func WithBunScan(ctx context.Context) context.Context {
	return context.WithValue(ctx, bunScanKey{}, true)
}

func bunScanAsked(ctx context.Context) bool {
	ok, _ := ctx.Value(bunScanKey{}).(bool)
	return ok
}
