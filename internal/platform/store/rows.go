package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
	readers := make([]columnReader, len(fields))
	for i, fd := range fields {
		c, err := plan.column(fd.Name)
		if err != nil {
			return nil, err
		}
		readers[i] = newColumnReader(c, fd)
	}
	typeMap := rows.Conn().TypeMap()
	var out []*M
	for rows.Next() {
		row := new(M)
		raw := rows.RawValues()
		for i := range readers {
			if err := readers[i].read(typeMap, unsafe.Pointer(row), raw[i]); err != nil {
				return nil, fmt.Errorf("store: scan column %s of %s: %w", readers[i].name, plan.table.TypeName, err)
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// columnReader reads one column of a statement's rows.
type columnReader struct {
	*columnPlan
	fd pgconn.FieldDescription
	// scan is pgx's plan for the column's type and its destination's, the
	// same on every row: made on the first value that needs it.
	scan pgtype.ScanPlan
	// at is a timestamp column read for a sql.Scanner: decoded by pgx
	// into at, then handed to the scanner as a time.Time, as database/sql
	// hands it (pgx would hand it through database/sql's value, boxed
	// twice).
	at *time.Time
	// jsonText is a json or jsonb column read for a sql.Scanner or a
	// json.RawMessage: its text is what either takes, the scanner as the
	// driver's bytes (which, by sql.Scanner's contract, it copies if it
	// keeps them), the raw message copied, as Bun copies it (pgx would
	// copy it for the scanner, and validate it through encoding/json for
	// the raw message).
	jsonText bool
}

func newColumnReader(c *columnPlan, fd pgconn.FieldDescription) columnReader {
	r := columnReader{columnPlan: c, fd: fd}
	switch fd.DataTypeOID {
	case pgtype.TimestamptzOID, pgtype.TimestampOID:
		if c.scansNull {
			r.at = new(time.Time)
		}
	case pgtype.JSONOID, pgtype.JSONBOID:
		r.jsonText = fd.Format == pgtype.TextFormatCode && (c.scansNull || c.rawMessage)
	}
	return r
}

// read reads src, the column's value in one row (nil: NULL), into the
// field of the row at row.
func (r *columnReader) read(typeMap *pgtype.Map, row unsafe.Pointer, src []byte) error {
	if src == nil && !r.scansNull {
		return nil // the field stays zero, as Bun leaves it
	}
	at := r.locate(row, src != nil)
	if at == nil {
		return nil
	}
	switch {
	case r.uuid == uuidValue && r.fd.Format == pgtype.TextFormatCode:
		return parseUUID(src, (*uuid.UUID)(at))
	case r.uuid == uuidPointer && r.fd.Format == pgtype.TextFormatCode:
		u := new(uuid.UUID)
		if err := parseUUID(src, u); err != nil {
			return err
		}
		*(**uuid.UUID)(at) = u
		return nil
	case r.boolean && r.fd.Format == pgtype.TextFormatCode && len(src) == 1 && (src[0] == 't' || src[0] == 'f'):
		*(*bool)(at) = src[0] == 't'
		return nil
	}
	dst := pointerAt(r.dest, at)
	if r.jsonText {
		if r.rawMessage {
			*(*json.RawMessage)(at) = bytes.Clone(src)
			return nil
		}
		if src == nil {
			return dst.(sql.Scanner).Scan(nil)
		}
		return dst.(sql.Scanner).Scan(src)
	}
	if r.at != nil {
		scanner := dst.(sql.Scanner)
		if src == nil {
			return scanner.Scan(nil)
		}
		if err := r.plan(typeMap, r.at).Scan(src, r.at); err != nil {
			return err
		}
		return scanner.Scan(*r.at)
	}
	return r.plan(typeMap, dst).Scan(src, dst)
}

// plan is pgx's scan plan of the column into dst, made once.
func (r *columnReader) plan(typeMap *pgtype.Map, dst any) pgtype.ScanPlan {
	if r.scan == nil {
		r.scan = typeMap.PlanScan(r.fd.DataTypeOID, r.fd.Format, dst)
	}
	return r.scan
}

// parseUUID reads a uuid's text with the uuid package's own parser, which
// reads the bytes in place (pgx's text decoding of a uuid allocates three
// times).
func parseUUID(src []byte, u *uuid.UUID) error {
	v, err := uuid.ParseBytes(src)
	if err != nil {
		return err
	}
	*u = v
	return nil
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
