package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/seed"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Every list, batch by id and batch of children the services serve reads,
// through SelectModels straight from pgx, the very models Bun reads
// (reflect.DeepEqual) with the very JSON renderings, over the sample data
// set made awkward: on one row of every table every nullable column NULL,
// on another every jsonb object given a member with escapes and every
// array emptied.
func TestSelectModelsReadsEveryReadAsBunDoes(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	_, err := seed.Run(context.Background(), env.Services, env.Merchant)
	require.NoError(t, err)
	scope := store.Scope{MerchantID: env.Merchant.ID}
	makeAwkward(t, env, scope)
	ctx := auth.WithPrincipal(context.Background(), &auth.Principal{Kind: auth.SecretKey, Merchant: env.Merchant, Scope: scope})

	reads := servedReads(reflect.ValueOf(env.Services), "Services", map[uintptr]bool{})
	var ids []string
	compared, nonEmpty := 0, map[string]bool{}
	first := 100
	for _, list := range reads.lists {
		for _, lp := range []op.ListParams{{PageParams: models.PageParams{PerPage: 100}}, {Keyset: true, First: &first}} {
			got, gotIDs := list.call(ctx, lp)
			want, _ := list.call(store.WithBunScan(ctx), lp)
			requireSameModels(t, list.name, want, got)
			if got.Len() > 0 {
				nonEmpty[list.name] = true
			}
			ids = append(ids, gotIDs...)
			compared++
		}
	}
	require.Greater(t, len(ids), 200, "the sample data set lists too few rows to compare")
	for _, batch := range reads.batches {
		got := batch.call(ctx, ids)
		want := batch.call(store.WithBunScan(ctx), ids)
		requireSameModels(t, batch.name, want, got)
		compared++
	}
	t.Logf("%d reads compared; lists with rows: %d of %d", compared, len(nonEmpty), len(reads.lists))
	// The resources the dashboard reads, at least, have rows to compare.
	for _, name := range []string{"Refunds", "Events", "Disputes", "Payouts", "Accounts", "Transfers", "Subscriptions", "Charges"} {
		found := false
		for n := range nonEmpty {
			found = found || strings.HasSuffix(n, "."+name)
		}
		require.True(t, found, "no rows of %s compared (lists with rows: %v)", name, nonEmpty)
	}
}

// A column read into another column's field, or dropped, is a difference
// the comparison above reports.
func TestSelectModelsComparisonNoticesAMisplacedColumn(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	_, err := seed.Run(context.Background(), env.Services, env.Merchant)
	require.NoError(t, err)
	tx := env.DB.Tenant(store.Scope{MerchantID: env.Merchant.ID})
	ctx := context.Background()
	want, err := store.SelectModels[models.Refund](store.WithBunScan(ctx), tx, tx.Select((*models.Refund)(nil)))
	require.NoError(t, err)
	require.NotEmpty(t, want)
	got, err := store.SelectModels[models.Refund](ctx, tx, tx.Select((*models.Refund)(nil)))
	require.NoError(t, err)
	require.Empty(t, differences(reflect.ValueOf(want), reflect.ValueOf(got)))

	swapped, err := store.SelectModels[models.Refund](ctx, tx, tx.Select((*models.Refund)(nil)))
	require.NoError(t, err)
	for _, r := range swapped {
		misplaceIDAndTransfer(r)
	}
	require.NotEmpty(t, differences(reflect.ValueOf(want), reflect.ValueOf(swapped)))
	// A column not read keeps its field zero: a difference too.
	dropped, err := store.SelectModels[models.Refund](ctx, tx, tx.Select((*models.Refund)(nil)).ExcludeColumn("reason"))
	require.NoError(t, err)
	require.NotEmpty(t, differences(reflect.ValueOf(want), reflect.ValueOf(dropped)))
}

// misplaceIDAndTransfer leaves r as a read that put column id into
// TransferID and transfer_id into ID would leave it: the id in the
// transfer's field, and the transfer's id (the zero id for a NULL, which a
// uuid field cannot hold) in the refund's.
func misplaceIDAndTransfer(r *models.Refund) {
	id := r.ID
	r.ID = uuid.Nil
	if r.TransferID != nil {
		r.ID = *r.TransferID
	}
	r.TransferID = &id
}

// makeAwkward rewrites two rows of every tenant table of scope: the newest
// gets NULL in every nullable column that takes it, the next one a member
// with escapes in every jsonb object, an empty jsonb array for every
// jsonb array, and an empty array for every array column. A change a
// constraint refuses is left out.
func makeAwkward(t *testing.T, env *testenv.Env, scope store.Scope) {
	t.Helper()
	ctx := context.Background()
	rows, err := env.DB.Pool.Query(ctx, `SELECT c.table_name, c.column_name, c.is_nullable = 'YES', c.data_type
		FROM information_schema.columns c
		WHERE c.table_schema = current_schema()
		  AND EXISTS (SELECT 1 FROM information_schema.columns m WHERE m.table_schema = c.table_schema
		      AND m.table_name = c.table_name AND m.column_name = 'merchant_id')
		  AND EXISTS (SELECT 1 FROM information_schema.columns m WHERE m.table_schema = c.table_schema
		      AND m.table_name = c.table_name AND m.column_name = 'created')
		  AND EXISTS (SELECT 1 FROM information_schema.tables tb WHERE tb.table_schema = c.table_schema
		      AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE')
		  AND c.is_generated = 'NEVER'
		ORDER BY c.table_name, c.ordinal_position`)
	require.NoError(t, err)
	type column struct {
		table, name, kind string
		nullable          bool
	}
	var columns []column
	for rows.Next() {
		var c column
		require.NoError(t, rows.Scan(&c.table, &c.name, &c.nullable, &c.kind))
		columns = append(columns, c)
	}
	require.NoError(t, rows.Err())
	nth := func(table string, n int) string {
		return fmt.Sprintf(`(SELECT id FROM %q WHERE merchant_id = $1 AND livemode = $2 ORDER BY created DESC, id DESC OFFSET %d LIMIT 1)`, table, n)
	}
	changed := 0
	try := func(sql string) {
		if tag, err := env.DB.Pool.Exec(ctx, sql, scope.MerchantID, scope.Livemode); err == nil && tag.RowsAffected() > 0 {
			changed++
		}
	}
	const member = `jsonb_build_object(E'k"ey\\<b>&\u2028', E'va"l\\ue\u2028 <i>&amp;')`
	for _, c := range columns {
		switch {
		case c.nullable && c.name != "merchant_id" && c.name != "livemode":
			try(fmt.Sprintf(`UPDATE %q SET %q = NULL WHERE id = %s`, c.table, c.name, nth(c.table, 0)))
		}
		switch c.kind {
		case "jsonb":
			try(fmt.Sprintf(`UPDATE %[1]q SET %[2]q = CASE jsonb_typeof(%[2]q) WHEN 'object' THEN %[2]q || %[3]s WHEN 'array' THEN '[]'::jsonb ELSE %[2]q END WHERE id = %[4]s`,
				c.table, c.name, member, nth(c.table, 1)))
		case "ARRAY":
			try(fmt.Sprintf(`UPDATE %q SET %q = '{}' WHERE id = %s`, c.table, c.name, nth(c.table, 1)))
		}
	}
	require.Greater(t, changed, 100, "too few awkward values were written")
}

// servedReads are the reads the services serve, found on them by their
// shapes: a list (ctx, filter, op.ListParams) (op.Page[*M], error) and a
// batch (ctx, []string) ([]T, []error), which is a batch by id or a batch
// of children.
type served struct {
	lists   []listRead
	batches []batchRead
}

type listRead struct {
	name string
	fn   reflect.Value
}

type batchRead struct {
	name string
	fn   reflect.Value
}

var (
	contextType    = reflect.TypeFor[context.Context]()
	listParamsType = reflect.TypeFor[op.ListParams]()
	idsType        = reflect.TypeFor[[]string]()
	errorsType     = reflect.TypeFor[[]error]()
)

func servedReads(v reflect.Value, name string, seen map[uintptr]bool) served {
	var out served
	if v.Kind() == reflect.Pointer {
		if v.IsNil() || seen[v.Pointer()] {
			return out
		}
		seen[v.Pointer()] = true
	}
	addr := v
	if v.Kind() == reflect.Struct && v.CanAddr() {
		addr = v.Addr()
	}
	if m := addr.MethodByName("List"); m.IsValid() {
		if ft := m.Type(); ft.NumIn() == 3 && ft.In(0) == contextType && ft.In(2) == listParamsType && ft.NumOut() == 2 {
			out.lists = append(out.lists, listRead{name: name, fn: m})
		}
	}
	if m := addr.MethodByName("ByIDs"); m.IsValid() && isBatch(m.Type()) {
		out.batches = append(out.batches, batchRead{name: name + ".ByIDs", fn: m})
	}
	s := reflect.Indirect(v)
	if s.Kind() != reflect.Struct {
		return out
	}
	for i := range s.NumField() {
		f, sf := s.Field(i), s.Type().Field(i)
		if !sf.IsExported() || sf.Anonymous {
			continue
		}
		switch {
		case f.Kind() == reflect.Func && isBatch(f.Type()) && !f.IsNil():
			out.batches = append(out.batches, batchRead{name: name + "." + sf.Name, fn: f})
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct, f.Kind() == reflect.Struct:
			more := servedReads(f, name+"."+sf.Name, seen)
			out.lists = append(out.lists, more.lists...)
			out.batches = append(out.batches, more.batches...)
		}
	}
	return out
}

func isBatch(ft reflect.Type) bool {
	return ft.NumIn() == 2 && ft.In(0) == contextType && ft.In(1) == idsType && ft.NumOut() == 2 && ft.Out(1) == errorsType
}

// call lists with lp and a filter of none: the page's items, and its ids.
func (l listRead) call(ctx context.Context, lp op.ListParams) (reflect.Value, []string) {
	out := l.fn.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.Zero(l.fn.Type().In(1)), reflect.ValueOf(lp)})
	if !out[1].IsNil() {
		return reflect.ValueOf(out[1].Interface().(error).Error()), nil
	}
	return out[0].FieldByName("Items"), out[0].FieldByName("IDs").Interface().([]string)
}

// call reads the batch of ids: its values, and its errors' texts.
func (b batchRead) call(ctx context.Context, ids []string) reflect.Value {
	out := b.fn.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(ids)})
	errs := out[1].Interface().([]error)
	texts := make([]string, len(errs))
	for i, err := range errs {
		if err != nil {
			texts[i] = err.Error()
		}
	}
	return reflect.ValueOf([]any{out[0].Interface(), texts})
}

// requireSameModels fails when want and got differ as Go values or as
// JSON, naming the first members that differ.
func requireSameModels(t *testing.T, name string, want, got reflect.Value) {
	t.Helper()
	if d := differences(want, got); len(d) > 0 {
		t.Fatalf("%s: read from pgx differs from Bun's: %s", name, strings.Join(d[:min(len(d), 10)], "; "))
	}
}

// differences names the members where a and b differ (reflect.DeepEqual),
// and their JSON renderings when those differ.
func differences(a, b reflect.Value) []string {
	var out []string
	walkDiff(&out, "", a, b)
	if len(out) == 0 && a.IsValid() && b.IsValid() && a.CanInterface() {
		ja, errA := json.Marshal(a.Interface())
		jb, errB := json.Marshal(b.Interface())
		if string(ja) != string(jb) || (errA == nil) != (errB == nil) {
			out = append(out, fmt.Sprintf("JSON %.300s != %.300s", ja, jb))
		}
	}
	return out
}

func walkDiff(out *[]string, path string, a, b reflect.Value) {
	if len(*out) >= 10 {
		return
	}
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			*out = append(*out, path+": one side missing")
		}
		return
	}
	if a.Type() != b.Type() {
		*out = append(*out, fmt.Sprintf("%s: %s != %s", path, a.Type(), b.Type()))
		return
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, fmt.Sprintf("%s: nil on one side only", path))
			}
			return
		}
		walkDiff(out, path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			walkDiff(out, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && (a.IsNil() != b.IsNil()) {
			*out = append(*out, fmt.Sprintf("%s: nil slice on one side only", path))
			return
		}
		if a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: %d items != %d", path, a.Len(), b.Len()))
			return
		}
		for i := range a.Len() {
			walkDiff(out, fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	default:
		if !deepEqual(a, b) {
			*out = append(*out, fmt.Sprintf("%s: %v != %v", path, printable(a), printable(b)))
		}
	}
}

// deepEqual is reflect.DeepEqual of two members; an unexported one is
// compared by its Go syntax.
func deepEqual(a, b reflect.Value) bool {
	if a.CanInterface() {
		return reflect.DeepEqual(a.Interface(), b.Interface())
	}
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

func printable(v reflect.Value) string {
	if v.CanInterface() {
		return fmt.Sprintf("%#v", v.Interface())
	}
	return fmt.Sprintf("%#v", v)
}

// Rows read straight from pgx come from the replica ReadTenant picks (a
// row the replica has not replayed is not there), and the statement is
// counted and recorded as Bun's are, on the replica as on the primary.
func TestSelectModelsReadsThePickedReplicaCountedAndRecorded(t *testing.T) {
	t.Parallel()
	f := setupReplica(t)
	f.rp.PauseReplay(t)
	// Written behind the store's back: no commit noted, so the replica,
	// which has not replayed it, still serves B.
	_, err := f.db.Pool.Exec(f.ctx, `INSERT INTO accounts (id, merchant_id, livemode, type, status, restricted_by, metadata, created, updated)
		SELECT gen_random_uuid(), merchant_id, livemode, type, status, restricted_by, metadata, created, updated
		FROM accounts WHERE merchant_id = $1`, f.b.MerchantID)
	require.NoError(t, err)

	rec := &store.StatementRecorder{}
	ctx, statements := store.WithStatementCounter(store.WithStatementRecorder(store.AllowReplica(f.ctx), rec))
	before := f.db.Replicas().States()[0].Reads
	tx := f.db.ReadTenant(ctx, f.b)
	q := tx.Select((*models.Account)(nil))
	want := q.String()
	onReplica, err := store.SelectModels[models.Account](ctx, tx, q)
	require.NoError(t, err)
	require.Len(t, onReplica, 1, "the replica has not replayed the second account")
	require.Greater(t, f.db.Replicas().States()[0].Reads, before)

	primary := f.db.Tenant(f.b)
	onPrimary, err := store.SelectModels[models.Account](ctx, primary, primary.Select((*models.Account)(nil)))
	require.NoError(t, err)
	require.Len(t, onPrimary, 2)

	require.Equal(t, int64(2), statements.Load())
	recorded := rec.Take()
	require.Len(t, recorded, 2)
	require.Equal(t, want, recorded[0].SQL, "the statement sent is Bun's, as Bun writes it")
}

// A statement that fails reaches the caller as the driver's error, which
// the store's classifiers read as they read Bun's: a PostgreSQL error
// keeps its code, and a database gone is unavailable (503).
func TestSelectModelsErrorsAreTheDriversAsThroughBun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var serving atomic.Bool
	serving.Store(true)
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 1, store.WithConnTarget(func(context.Context, *pgx.ConnConfig) error {
		if !serving.Load() {
			return errors.New("no database serving")
		}
		return nil
	}))
	require.NoError(t, err)
	t.Cleanup(db.Close)
	tx := db.Tenant(store.Scope{MerchantID: uuid.New()})
	failing := func() *bun.SelectQuery {
		return tx.Select((*models.Account)(nil)).Where("1 / (SELECT count(*) - count(*) FROM accounts) = 1")
	}
	for _, read := range []context.Context{ctx, store.WithBunScan(ctx)} {
		_, err := store.SelectModels[models.Account](read, tx, failing())
		var pgErr *pgconn.PgError
		require.ErrorAs(t, err, &pgErr)
		require.Equal(t, "22012", pgErr.Code)
		require.False(t, store.IsUnavailable(err))
	}

	serving.Store(false)
	db.Pool.Reset() // the next statement needs a new connection
	_, err = store.SelectModels[models.Account](ctx, tx, tx.Select((*models.Account)(nil)))
	require.True(t, store.IsUnavailable(err), "%v", err)
	require.Equal(t, 503, apierr.From(err).Status)
}
