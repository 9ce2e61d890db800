package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// PgxTx runs fn with the tenant's transaction as a pgx.Tx, so that code
// written for pgx (River's InsertTx) writes inside the same transaction as
// the Bun statements around it: what fn writes commits or rolls back with
// them. Only a Tenant of Tx has a transaction to lend.
//
// The pgx.Tx given to fn belongs to the enclosing transaction: it cannot
// begin, commit or roll back (the enclosing Tx does), and it is valid only
// during fn.
func (t *Tenant) PgxTx(ctx context.Context, fn func(pgx.Tx) error) error {
	if t.conn == nil {
		return errors.New("store: PgxTx outside a transaction")
	}
	return t.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return errors.New("store: the connection is not a pgx connection")
		}
		return fn(joinedTx{c.Conn()})
	})
}

// errJoined refuses what only the enclosing transaction may do.
var errJoined = errors.New("store: a joined transaction is committed or rolled back by its owner")

// joinedTx is the pgx face of a transaction database/sql opened on the
// same connection: statements run on the connection, hence in the
// transaction.
type joinedTx struct{ c *pgx.Conn }

func (j joinedTx) Begin(context.Context) (pgx.Tx, error) { return nil, errJoined }
func (j joinedTx) Commit(context.Context) error          { return errJoined }
func (j joinedTx) Rollback(context.Context) error        { return errJoined }
func (j joinedTx) Conn() *pgx.Conn                       { return j.c }
func (j joinedTx) LargeObjects() pgx.LargeObjects        { return pgx.LargeObjects{} }

func (j joinedTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return j.c.CopyFrom(ctx, table, cols, src)
}

func (j joinedTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return j.c.SendBatch(ctx, b)
}

func (j joinedTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return j.c.Prepare(ctx, name, sql)
}

func (j joinedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return j.c.Exec(ctx, sql, args...)
}

func (j joinedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return j.c.Query(ctx, sql, args...)
}

func (j joinedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return j.c.QueryRow(ctx, sql, args...)
}
