package op

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Table declares, once per resource, how the resource is read, and gives
// it every read the operation layer needs: Get (by id, the documented 404),
// ByIDs (a dataloader's batch), List (the page envelope or a keyset page),
// Find and Lock (inside a write) and Children (the rows of many parents in
// one statement). A resource writes none of these by hand.
//
// M is the Bun model (models.Refund); rows travel as *M. The table's alias,
// its id column and its created column come from the model's Bun metadata,
// so a declaration says only what is particular to the resource:
//
//	var refunds = &op.Table[models.Refund]{Resource: "refund"}
type Table[M any] struct {
	// Resource names the object in a resource_missing error ("refund").
	Resource string
	// Allow lists the credential kinds that may read the resource through
	// Get, ByIDs, List and Children; empty means the secret key only.
	Allow []auth.Kind
	// Visible narrows what p sees beyond its merchant and mode (a session
	// secret sees its own account's rows only); nil sees the whole tenant.
	// It runs on every read of the kit, writes' reads included, with the
	// writer as p.
	Visible func(q *bun.SelectQuery, p *auth.Principal) *bun.SelectQuery
	// Where narrows every read of the resource, whoever reads (the rows it
	// no longer shows: a deleted webhook endpoint is gone for every read,
	// a write's lock included).
	Where func(q *bun.SelectQuery) *bun.SelectQuery
	// Sees, when set, tells from an id alone whether p may see the object
	// (a session secret sees its own account only): an id it refuses is
	// resource_missing without a statement. It serves Get, Find, Lock and
	// ByIDs; Visible still narrows what a list or a batch reads.
	Sees func(p *auth.Principal, id uuid.UUID) bool
	// Columns adds the resource's computed columns to every read, so one
	// statement returns the whole object.
	Columns func(q *bun.SelectQuery) *bun.SelectQuery
	// Embedded are the resource's children read in its own statement
	// (Embed): each adds its column to every read, and every read of the
	// kit fills the rows' children from it, before Derive.
	Embedded []Embedding[M]
	// Derive completes each row read (derived members), given the time of
	// the read.
	Derive func(row *M, now time.Time)
	// Referenced marks a resource other rows refer to by foreign key,
	// inserted by writes that hold locks of their own (a payer or a test
	// clock: invoices, subscriptions and charges name them). Its rows are
	// never deleted and their keys never change, so Lock with LockUpdate
	// takes FOR NO KEY UPDATE: its writers still exclude each other, but a
	// write inserting a row that refers to it, whose foreign-key check
	// takes a key-share lock on it, does not wait for them. That wait
	// closed lock cycles between a payer's or a clock's writes and the
	// billing of its objects (docs/billing.md, "Lock order").
	Referenced bool

	once sync.Once
	meta tableMeta
}

// tableMeta is what the kit learns once from the model's Bun metadata.
type tableMeta struct {
	alias   string
	id      *schema.Field
	created *schema.Field
}

// Lock strengths of Lock.
type Lock string

// LockUpdate locks a row to change it; LockShare keeps it from changing
// while the write reads it (a parent whose children the write adds).
// LockNoKeyUpdate locks a row to change columns other than its key: it
// excludes every other writer of the row, but not the key-share locks
// that inserting a row referring to it takes (its foreign-key check), so
// a row that other writes refer to while they hold their own locks (a
// test clock) is locked by it without a lock cycle through those checks.
const (
	LockUpdate      Lock = "UPDATE"
	LockShare       Lock = "SHARE"
	LockNoKeyUpdate Lock = "NO KEY UPDATE"
)

// allow is the credential kinds that may read.
func (t *Table[M]) allow() []auth.Kind {
	if len(t.Allow) == 0 {
		return []auth.Kind{auth.SecretKey}
	}
	return t.Allow
}

// init reads the model's alias, id and created fields from Bun, once.
func (t *Table[M]) init(db *bun.DB) tableMeta {
	t.once.Do(func() {
		tbl := db.Table(reflect.TypeOf((*M)(nil)).Elem())
		t.meta = tableMeta{alias: tbl.Alias, id: column(tbl, "id"), created: column(tbl, "created")}
	})
	return t.meta
}

func column(tbl *schema.Table, name string) *schema.Field {
	for _, f := range tbl.Fields {
		if f.Name == name {
			return f
		}
	}
	panic(fmt.Sprintf("op: table %s has no %s column", tbl.Name, name))
}

// Alias is the model's table alias, for conditions a resource adds to
// Select ("?TableAlias" serves in most of them).
func (t *Table[M]) Alias(db *store.DB) string { return t.init(db.Bun).alias }

// Select starts the resource's read in tx: scoped to tx's merchant and
// mode, narrowed to what p may see (p may be nil: the whole tenant), with
// the resource's computed columns. Reads of the kit all start here; a
// resource starts a read of its own here too.
func (t *Table[M]) Select(tx *store.Tenant, p *auth.Principal, dest any) *bun.SelectQuery {
	q := tx.Select(dest)
	if t.Columns != nil || len(t.Embedded) > 0 {
		// The model's own columns (a table may hold more, generated search
		// columns the model has no field for), then the computed ones.
		q = q.ColumnExpr("?TableColumns")
	}
	if t.Columns != nil {
		q = t.Columns(q)
	}
	for _, e := range t.Embedded {
		q = e.Select(q)
	}
	if t.Where != nil {
		q = t.Where(q)
	}
	if t.Visible != nil && p != nil {
		q = t.Visible(q, p)
	}
	return q
}

// Get returns one object by id for the caller: 401/403 for a credential
// kind the resource refuses, resource_missing for an id that does not
// parse, is another tenant's, or is not visible (one statement).
func (t *Table[M]) Get(ctx context.Context, k *Kit, id string) (*M, error) {
	p, err := auth.Require(ctx, t.allow()...)
	if err != nil {
		return nil, err
	}
	return t.read(ctx, k, k.DB.Tenant(p.Scope), p, id, "")
}

// Find reads one object by id inside the write w, without locking it.
func (t *Table[M]) Find(ctx context.Context, w *W, id string) (*M, error) {
	return t.read(ctx, w.kit, w.Tx, w.P, id, "")
}

// Lock reads one object by id inside the write w and locks its row
// (SELECT … FOR UPDATE / FOR SHARE / FOR NO KEY UPDATE) until the write
// commits. Take locks
// before the write's first W.Now.
func (t *Table[M]) Lock(ctx context.Context, w *W, id string, how Lock) (*M, error) {
	return t.read(ctx, w.kit, w.Tx, w.P, id, how)
}

// TryLock is Lock with LockUpdate that does not wait (SKIP LOCKED): when
// another write holds the row, it answers the row as last committed,
// unlocked, and locked false, so that the caller can refuse at once what
// that write is doing (a second advance of a clock still advancing)
// instead of queueing behind it and deciding on what it left. One
// statement when the row is free, two when it is held.
func (t *Table[M]) TryLock(ctx context.Context, w *W, id string) (row *M, locked bool, err error) {
	how := LockUpdate
	if t.Referenced {
		how = LockNoKeyUpdate
	}
	row, err = t.read(ctx, w.kit, w.Tx, w.P, id, how+skipLocked)
	if e := (*apierr.Error)(nil); !errors.As(err, &e) || e.Code != apierr.CodeResourceMissing {
		return row, err == nil, err
	}
	row, err = t.Find(ctx, w, id)
	return row, false, err
}

// skipLocked, after a lock strength, makes a locking read pass over rows
// other writes hold (TryLock).
const skipLocked = " SKIP LOCKED"

// GetIn reads one object by id within tx for p (p may be nil: the whole
// tenant), for a read a resource serves under an access rule of its own
// (a charge intent read with its client_secret).
func (t *Table[M]) GetIn(ctx context.Context, k *Kit, tx *store.Tenant, p *auth.Principal, id string) (*M, error) {
	return t.read(ctx, k, tx, p, id, "")
}

func (t *Table[M]) read(ctx context.Context, k *Kit, tx *store.Tenant, p *auth.Principal, id string, how Lock) (*M, error) {
	uid, ok := ids.Parse(id)
	if !ok || !t.sees(p, uid) {
		return nil, apierr.NotFound(t.Resource, id)
	}
	m := t.init(k.DB.Bun)
	row := new(M)
	q := t.Select(tx, p, row).Where("?.id = ?", bun.Ident(m.alias), uid)
	if how == LockUpdate && t.Referenced {
		how = LockNoKeyUpdate
	}
	if how != "" {
		strength, wait := string(how), ""
		if cut, ok := strings.CutSuffix(strength, skipLocked); ok {
			strength, wait = cut, skipLocked // after OF, as SQL writes it
		}
		q = q.For(strength + " OF ?TableAlias" + wait)
	}
	return t.scanOne(ctx, k, q, row, id)
}

// scanOne runs q, a read of the one object id into row, and completes it:
// no row is resource_missing naming the object, as every read by id
// answers.
func (t *Table[M]) scanOne(ctx context.Context, k *Kit, q *bun.SelectQuery, row *M, id string) (*M, error) {
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound(t.Resource, id)
		}
		return nil, err
	}
	if err := t.complete(k, row); err != nil {
		return nil, err
	}
	return row, nil
}

// sees applies Sees (p nil: the whole tenant).
func (t *Table[M]) sees(p *auth.Principal, id uuid.UUID) bool {
	return t.Sees == nil || p == nil || t.Sees(p, id)
}

// LoadEmbedded fills the embedded children of rows that a read of the
// resource's own, started from Select, has scanned (the kit's reads do it
// themselves).
func (t *Table[M]) LoadEmbedded(rows ...*M) error {
	for _, e := range t.Embedded {
		if err := e.Load(rows...); err != nil {
			return err
		}
	}
	return nil
}

// complete completes rows read: their embedded children, then Derive,
// with one reading of the clock.
func (t *Table[M]) complete(k *Kit, rows ...*M) error {
	if err := t.LoadEmbedded(rows...); err != nil {
		return err
	}
	if t.Derive == nil || len(rows) == 0 {
		return nil
	}
	now := k.Clock.Now()
	for _, r := range rows {
		t.Derive(r, now)
	}
	return nil
}

// ByIDs answers a dataloader's batch in one statement: one object or one
// error per id, in the order asked, each error as Get would answer it.
func (t *Table[M]) ByIDs(ctx context.Context, k *Kit, idList []string) ([]*M, []error) {
	p, err := auth.Require(ctx, t.allow()...)
	var visible func(uuid.UUID) bool
	if t.Sees != nil && p != nil {
		visible = func(id uuid.UUID) bool { return t.Sees(p, id) }
	}
	return ByIDs(idList, t.Resource, err, visible, func(want []uuid.UUID) (map[uuid.UUID]*M, error) {
		m := t.init(k.DB.Bun)
		tx := k.DB.Tenant(p.Scope)
		rows, err := store.SelectModels[M](ctx, tx, t.Select(tx, p, (*M)(nil)).Where("?.id IN (?)", bun.Ident(m.alias), bun.In(want)))
		if err != nil {
			return nil, err
		}
		if err := t.complete(k, rows...); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*M, len(rows))
		for _, r := range rows {
			found[t.ID(r)] = r
		}
		return found, nil
	})
}

// List is the one list of the resource, newest first: the REST page (and
// search) and the GraphQL connection alike. The filter, declared once
// (see ApplyFilter), is checked and applied; every problem of it is
// reported at once. It reads a replica when the request allows and the
// replica has the caller's last write (store.DB.ReadTenant).
func (t *Table[M]) List(ctx context.Context, k *Kit, filter any, lp ListParams) (Page[*M], error) {
	p, err := auth.Require(ctx, t.allow()...)
	if err != nil {
		return Page[*M]{}, err
	}
	return t.ListIn(ctx, k, k.DB.ReadTenant(ctx, p.Scope), p, filter, lp)
}

// ListIn lists within tx for p (p may be nil), for the lists a resource
// serves under a rule of its own (a parent that must exist first).
func (t *Table[M]) ListIn(ctx context.Context, k *Kit, tx *store.Tenant, p *auth.Principal, filter any, lp ListParams) (Page[*M], error) {
	t.init(k.DB.Bun)
	q := t.Select(tx, p, (*M)(nil))
	q, err := ApplyFilter(q, filter)
	if err != nil {
		return Page[*M]{}, err
	}
	page, err := List(ctx, tx, q, t.meta.alias, lp, t.Position)
	if err != nil {
		return page, err
	}
	return page, t.complete(k, page.Items...)
}

// ID is a row's id.
func (t *Table[M]) ID(row *M) uuid.UUID {
	return t.meta.id.Value(reflect.ValueOf(row).Elem()).Interface().(uuid.UUID)
}

// Position is a row's place in the newest-first order.
func (t *Table[M]) Position(row *M) Position {
	created := t.meta.created.Value(reflect.ValueOf(row).Elem()).Interface()
	var at time.Time
	switch c := created.(type) {
	case time.Time:
		at = c
	case interface{ UTC() time.Time }:
		at = c.UTC()
	default:
		panic(fmt.Sprintf("op: %s.created is a %T", t.Resource, created))
	}
	return Position{Created: at, ID: t.ID(row)}
}

// GetOf returns one object by id that belongs to the parent parentID, its
// parent named by column ("account_id"): a resource nested under its
// parent's path (/v1/accounts/{account}/phone_verifications/{id}).
// resource_missing names the parent (parentResource) for a parent id that
// does not parse, and the object for the rest: one of another parent is
// missing like one that does not exist (one statement).
func (t *Table[M]) GetOf(ctx context.Context, k *Kit, column, parentResource, parentID, id string) (*M, error) {
	p, err := auth.Require(ctx, t.allow()...)
	if err != nil {
		return nil, err
	}
	pid, ok := ids.Parse(parentID)
	if !ok {
		return nil, apierr.NotFound(parentResource, parentID)
	}
	uid, ok := ids.Parse(id)
	if !ok || !t.sees(p, uid) {
		return nil, apierr.NotFound(t.Resource, id)
	}
	m := t.init(k.DB.Bun)
	row := new(M)
	q := t.Select(k.DB.Tenant(p.Scope), p, row).Where("?.? = ?", bun.Ident(m.alias), bun.Ident(column), pid).
		Where("?.id = ?", bun.Ident(m.alias), uid)
	return t.scanOne(ctx, k, q, row, id)
}
