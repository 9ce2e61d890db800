package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
)

// Bun writes arguments into the SQL text, so every statement it sends is
// parsed and planned anew: for a read by id that costs PostgreSQL about two
// thirds of the statement's time (pgbench, simple protocol against
// prepared: 12.7k against 34k transactions per second on two cores). The
// hottest reads are therefore declared once as PreparedRead, with
// placeholders, and run through the extended protocol from pgx's statement
// cache: each connection prepares the text once and then only binds
// arguments.

// PreparedRead is a read with placeholders whose first two are the
// tenant's scope: $1 is merchant_id and $2 is livemode, both required in
// the text, so a prepared read cannot forget the scope either. Declare it
// once (a package variable): its text is the cache key on every
// connection.
type PreparedRead struct{ sql string }

// NewPreparedRead checks query's scope placeholders; it panics on a query
// without them, at start-up.
func NewPreparedRead(query string) PreparedRead {
	if !strings.Contains(query, ".merchant_id = $1") || !strings.Contains(query, ".livemode = $2") {
		panic(fmt.Sprintf("store: a prepared read must filter `<alias>.merchant_id = $1` and `<alias>.livemode = $2`: %s", query))
	}
	return PreparedRead{sql: query}
}

// SQL is the read's text.
func (r PreparedRead) SQL() string { return r.sql }

// ScanPreparedRow runs r in the tenant's scope with args as $3, $4, … and
// scans its first row into dest (a model pointer) as Bun scans a model;
// sql.ErrNoRows when there is none (IsNoRows).
func (t *Tenant) ScanPreparedRow(ctx context.Context, r PreparedRead, dest any, args ...any) error {
	rows, err := t.queryPrepared(ctx, r, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := t.bun.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// ScanPrepared runs r like ScanPreparedRow and scans every row into dest (a
// pointer to a slice of models).
func (t *Tenant) ScanPrepared(ctx context.Context, r PreparedRead, dest any, args ...any) error {
	rows, err := t.queryPrepared(ctx, r, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	return t.bun.ScanRows(ctx, rows, dest)
}

// queryPrepared sends r with the scope and args through the statement
// cache, over the pool or the tenant's transaction, counted like every
// statement.
func (t *Tenant) queryPrepared(ctx context.Context, r PreparedRead, args []any) (*sql.Rows, error) {
	if r.sql == "" {
		return nil, fmt.Errorf("store: prepared read not declared with NewPreparedRead")
	}
	full := make([]any, 0, 3+len(args))
	mode := t.prepared
	if mode == 0 {
		mode = pgx.QueryExecModeCacheStatement
	}
	full = append(full, mode, [16]byte(t.scope.MerchantID), t.scope.Livemode)
	for _, a := range args {
		full = append(full, boundArg(a))
	}
	if c := StatementCount(ctx); c != nil {
		c.Add(1)
	}
	if _, ok := ctx.Value(recorderKey{}).(*StatementRecorder); ok {
		recordStatement(ctx, r.sql, append([]any{t.scope.MerchantID, t.scope.Livemode}, args...))
	}
	switch db := t.idb.(type) {
	case *bun.DB:
		return db.DB.QueryContext(ctx, r.sql, full...)
	case bun.Tx:
		return db.Tx.QueryContext(ctx, r.sql, full...)
	}
	return nil, fmt.Errorf("store: prepared read on %T", t.idb)
}

// boundArg is an argument as pgx encodes it with the least work: a
// uuid.UUID is a driver.Valuer, which pgx encodes through its text and a
// search for a plan (some fifteen allocations), where the same 16 bytes as
// an array are a uuid to it directly.
func boundArg(a any) any {
	if u, ok := a.(uuid.UUID); ok {
		return [16]byte(u)
	}
	return a
}

// formatter renders Bun queries to text without a connection, so prepared
// reads can be declared as package variables with Bun's model-aware
// builder (column lists follow the model).
var formatter = bun.NewDB(nil, dialect)

// NewPreparedSelect declares a prepared read built with Bun: build gets a
// select of model and adds columns and conditions with placeholders
// (Where("a.id = $3")); the scope conditions ($1, $2) are added here.
func NewPreparedSelect(model any, build func(*bun.SelectQuery) *bun.SelectQuery) PreparedRead {
	q := formatter.NewSelect().Model(model).
		Where("?TableAlias.merchant_id = $1").
		Where("?TableAlias.livemode = $2")
	return NewPreparedRead(build(q).String())
}
