package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// Scope is the tenant a request acts for: one merchant, one mode.
type Scope struct {
	MerchantID uuid.UUID
	Livemode   bool
}

// TenantRow is implemented by every tenant model so that inserts stamp the
// scope on the row themselves.
type TenantRow interface {
	SetScope(Scope)
}

// Tenant is a query starter bound to one Scope, over the pool or inside a
// transaction. It is the only way the operation layer reaches tenant tables.
type Tenant struct {
	idb   bun.IDB
	bun   *bun.DB // scans prepared reads' rows (ScanPrepared)
	scope Scope
	// conn is the connection a transaction runs on (nil over the pool): it
	// lends the transaction to pgx code (PgxTx).
	conn *sql.Conn
	// prepared is how prepared reads are sent (DB.prepared).
	prepared pgx.QueryExecMode
	// pool is the pool idb runs on, for the reads sent through pgx itself
	// (SelectModels); nil inside a transaction.
	pool *pgxpool.Pool
}

// Tenant returns a Tenant over the pool.
func (d *DB) Tenant(s Scope) *Tenant {
	return &Tenant{idb: d.Bun, bun: d.Bun, scope: s, prepared: d.prepared, pool: d.Pool}
}

// Scope returns the tenant's scope.
func (t *Tenant) Scope() Scope { return t.scope }

// Select starts a SELECT on model's table filtered by merchant and mode.
func (t *Tenant) Select(model any) *bun.SelectQuery {
	return t.idb.NewSelect().Model(model).
		Where("?TableAlias.merchant_id = ?", t.scope.MerchantID).
		Where("?TableAlias.livemode = ?", t.scope.Livemode)
}

// SelectFrom starts a SELECT over sub, a query built from the tenant's own
// starters (so its tables are already filtered by merchant and mode), as
// alias: the union or the aggregate of tenant queries that needs a query
// around them.
func (t *Tenant) SelectFrom(sub schema.QueryAppender, alias string) *bun.SelectQuery {
	return t.idb.NewSelect().TableExpr("(?) AS ?", sub, bun.Ident(alias))
}

// Update starts an UPDATE on model's table filtered by merchant and mode.
func (t *Tenant) Update(model any) *bun.UpdateQuery {
	return t.idb.NewUpdate().Model(model).
		Where("?TableAlias.merchant_id = ?", t.scope.MerchantID).
		Where("?TableAlias.livemode = ?", t.scope.Livemode)
}

// Delete starts a DELETE on model's table filtered by merchant and mode.
func (t *Tenant) Delete(model any) *bun.DeleteQuery {
	return t.idb.NewDelete().Model(model).
		Where("?TableAlias.merchant_id = ?", t.scope.MerchantID).
		Where("?TableAlias.livemode = ?", t.scope.Livemode)
}

// Insert stamps the scope on row and starts an INSERT.
func (t *Tenant) Insert(row TenantRow) *bun.InsertQuery {
	row.SetScope(t.scope)
	return t.idb.NewInsert().Model(row)
}

// InsertModel stamps the scope on every row and starts one INSERT of them
// all.
func InsertModel[T TenantRow](t *Tenant, rows []T) *bun.InsertQuery {
	for _, r := range rows {
		r.SetScope(t.scope)
	}
	return t.idb.NewInsert().Model(&rows)
}

// TryLock takes a transaction-scoped advisory lock named name within the
// tenant, without waiting: false means another transaction holds it. Inside
// Tx the lock is released at commit or rollback; outside a transaction it
// would be released at once, so call it only from Tx.
func (t *Tenant) TryLock(ctx context.Context, name string) (bool, error) {
	var ok bool
	err := t.idb.NewRaw("SELECT pg_try_advisory_xact_lock(?)", t.LockKey(name)).Scan(ctx, &ok)
	return ok, err
}

// LockKey is, in SQL, the key of the advisory lock named name within the
// tenant (the key Lock takes), so that a read can take the lock in its own
// statement: SELECT pg_advisory_xact_lock_shared(<LockKey>) beside the row
// it reads.
func (t *Tenant) LockKey(name string) schema.QueryAppender {
	return bun.SafeQuery("hashtextextended(?, 0)", t.lockName(name))
}

func (t *Tenant) lockName(name string) string {
	return t.scope.MerchantID.String() + "|" + strconv.FormatBool(t.scope.Livemode) + "|" + name
}

// Lock takes a transaction-scoped advisory lock named name within the
// tenant, waiting for it: writes that must see each other's effects (a
// count against a limit) run one after the other. Like TryLock, call it
// only from Tx.
func (t *Tenant) Lock(ctx context.Context, name string) error {
	_, err := t.idb.NewRaw("SELECT pg_advisory_xact_lock(?)", t.LockKey(name)).Exec(ctx)
	return err
}

// Tx runs fn in one transaction bound to scope: the change and the events it
// emits commit together or not at all.
//
// The transaction runs on a connection held for it, so that code speaking
// pgx (the job engine enqueueing a job) can join it (PgxTx).
func (d *DB) Tx(ctx context.Context, s Scope, fn func(ctx context.Context, tx *Tenant) error) error {
	conn, err := d.Bun.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = conn.RunInTx(ctx, &sql.TxOptions{}, func(ctx context.Context, btx bun.Tx) error {
		return fn(ctx, &Tenant{idb: btx, bun: d.Bun, scope: s, conn: conn.Conn, prepared: d.prepared})
	})
	if err == nil && d.replicas != nil {
		// The merchant reads its own write: replicas serve it again once
		// they have replayed this commit (replicas.go).
		d.replicas.noteCommit(ctx, conn.Conn, s)
	}
	return err
}

// IsNoRows reports whether err means that no row matched.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
