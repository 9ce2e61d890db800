package migrations_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/migrations"
)

var update = flag.Bool("update", false, "rewrite the upgrade test's golden files from what the server reads back")

// The fixtures' objects: their ids, and the sandbox secret key of their
// merchant (fixed by testdata/fixtures, which store only its hash).
const (
	fixtureMerchant  = "019bc186-de00-75ef-8e0d-063ec2b297b2"
	fixtureSecretKey = "sk_sandbox_2aZfesgkrDjLp5SyA3mlcVQfxVKEqjdX31oDmy0u"
	fixtureEndpoint  = "019bc2d0-7501-7702-95ba-927a3d938be3"
)

// fixtureReads are the REST reads of every fixture object, each compared
// with testdata/golden/<name>.json.
var fixtureReads = []struct{ name, path string }{
	{"account_individual", "/v1/accounts/019bc1bd-cc81-7110-98c4-e1208c31193a"},
	{"account_business", "/v1/accounts/019bc1bd-cc83-7997-9dc0-1288e501f44c"},
	{"account_idempotent", "/v1/accounts/019bc1f4-bb02-766a-8978-14c42c1d9d5d"},
	{"customer", "/v1/customers/019bc299-8682-7cd7-811a-5a833e449f2a"},
	{"payment_method_account_card", "/v1/payment_methods/019bc299-8684-70d9-990b-9741beb7f9ac"},
	{"payment_method_customer_card", "/v1/payment_methods/019bc299-8686-7712-9d30-f21e0d4aea90"},
	{"webhook_endpoint", "/v1/webhook_endpoints/" + fixtureEndpoint},
	{"webhook_deliveries", "/v1/webhook_endpoints/" + fixtureEndpoint + "/deliveries"},
	{"listen_session_deliveries", "/v1/webhook_endpoints/019bc7f6-d100-7a01-8b00-7c0a1e000001/deliveries"},
	{"transfer_before_charges", "/v1/transfers/019bc33e-5205-71ff-8e5a-b244ad7b83d9"},
	{"transfer_refunded", "/v1/transfers/019bc375-4081-71fc-8983-b7d9035ff1e4"},
	{"transfer_disputed", "/v1/transfers/019bc3e3-1d81-739a-8f97-49c046fd61ae"},
	{"refund", "/v1/refunds/019bc487-e903-7eef-8210-ecab56e06da9"},
	{"dispute", "/v1/disputes/019bc487-e909-7c7a-9e66-2310397c9cab"},
	{"payout", "/v1/payouts/019bc41a-0c08-77f0-89f1-f8ca830732ae"},
	{"invoice", "/v1/invoices/019bc4a3-6041-7a02-8b00-4c0a1e000002"},
	{"test_clock", "/v1/test_helpers/test_clocks/019bc4b0-0000-7a01-8b00-5c0a1e000001"},
	{"subscription", "/v1/subscriptions/019bc4b0-0004-7a05-8b00-5c0a1e000005"},
	{"subscription_phases", "/v1/subscriptions/019bc4b0-0004-7a05-8b00-5c0a1e000005/phases"},
	{"subscription_change_logs", "/v1/subscriptions/019bc4b0-0004-7a05-8b00-5c0a1e000005/change_logs"},
	{"billing_meter", "/v1/billing/metering/019bc4c0-0000-7a01-8b00-6c0a1e000001"},
	{"metering_event", "/v1/billing/metering_events/019bc4c0-0002-7a03-8b00-6c0a1e000003"},
	{"threshold_progress", "/v1/billing/report/threshold_progress?customer=019bc4b0-0001-7a02-8b00-5c0a1e000002"},
	{"usage_report", "/v1/billing/report/customer?customer=019bc4b0-0001-7a02-8b00-5c0a1e000002&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z"},
	{"events", "/v1/events?limit=100"},
}

// A database filled at every schema version with what that version stored
// upgrades without losing anything. Each migration is applied, then its
// fixture (testdata/fixtures/<version>.sql: the rows of the objects made at
// that version, with the columns it had) is loaded, so every fixture goes
// through every later migration. The upgraded database is then served:
// every object reads back as its golden file says, the books balance, an
// idempotency key of the oldest form still replays, and the webhook
// deliveries pending before the upgrade are delivered.
func TestUpgradeKeepsEveryObject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := testdb.NewEmptyDatabaseURL(t)
	db, err := store.Open(ctx, url, 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	// The job engine's tables come with their own migrations, outside the
	// application's versions; a job a version enqueued is a row of them.
	require.NoError(t, jobs.Migrate(ctx, db.Pool))
	loader, err := pgx.Connect(ctx, testdb.SuperuserURL(t, url))
	require.NoError(t, err)
	t.Cleanup(func() { _ = loader.Close(ctx) })

	all, err := migrations.Migrations()
	require.NoError(t, err)
	for k, m := range all.Sorted() {
		require.NoError(t, migrations.ApplyFirst(ctx, db.Bun, k+1), m.Name)
		loadFixture(t, loader, m.Name)
	}
	require.NoError(t, migrations.Apply(ctx, db.Bun))

	env := testenv.Open(t, url)
	env.Clock.Set(testenv.Start.Add(15 * time.Hour)) // after every fixture's time
	sk := env.Client(fixtureSecretKey)
	for _, read := range fixtureReads {
		r := sk.Get(read.path)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", read.path, r.Body)
		requireGolden(t, read.name, r.Body)
	}

	tenant := db.Tenant(store.Scope{MerchantID: uuid.MustParse(fixtureMerchant)})
	drift, err := ledger.Audit(ctx, tenant)
	require.NoError(t, err)
	require.Empty(t, drift, "the books balance")

	replay := sk.Do(http.MethodPost, "/v1/accounts", idempotentAccountBody, http.Header{"Idempotency-Key": {"upgrade-2"}})
	require.Equal(t, http.StatusCreated, replay.Status, string(replay.Body))
	require.Equal(t, "019bc1f4-bb02-766a-8978-14c42c1d9d5d", replay.JSON()["id"], "the key replays the account it created")

	requirePayersBackfilled(t, sk)
	requirePhonesNormalized(t, db)
	requireThresholdTotalsKept(t, sk, db)
	requirePendingDeliveriesDelivered(t, env, db)
}

// requireThresholdTotalsKept reports an event for the threshold payer of
// fixture 00051: its ingest adds to the running totals the fixture stored
// (their cycle is the payer's current one), which then hold the three
// events.
func requireThresholdTotalsKept(t *testing.T, sk *testenv.Client, db *store.DB) {
	t.Helper()
	r := sk.Post("/v1/billing/metering_events", map[string]any{"event_name": "api.calls", "reference": "after-upgrade",
		"customer": "019bc4b0-0001-7a02-8b00-5c0a1e000002", "value": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var events int
	var sum string
	require.NoError(t, db.Pool.QueryRow(context.Background(), `SELECT events, sum_value::text FROM usage_threshold_totals
		WHERE threshold_id = '019bc4d0-0000-7a01-8b00-7c0a1e000001'`).Scan(&events, &sum))
	require.Equal(t, 3, events)
	require.Equal(t, "7.5", sum)
}

// requirePhonesNormalized reads the stored profiles of the accounts of
// fixtures 00001 and 00002 that have a phone: migration 00034 gave each
// its E.164 form.
func requirePhonesNormalized(t *testing.T, db *store.DB) {
	t.Helper()
	for _, id := range []string{"019bc1bd-cc81-7110-98c4-e1208c31193a", "019bc1f4-bb02-766a-8978-14c42c1d9d5d"} {
		var e164 *string
		require.NoError(t, db.Pool.QueryRow(context.Background(),
			"SELECT profile #>> '{individual,phone,e164}' FROM accounts WHERE id = $1", id).Scan(&e164))
		require.NotNil(t, e164, "account %s has its phone's E.164 form", id)
		require.Equal(t, "+12001001695", *e164, id)
	}
}

// requirePayersBackfilled reads the refund and the dispute of fixture
// 00014 under the account that paid their charges: migration 00024 gave
// them their charge's payer.
func requirePayersBackfilled(t *testing.T, sk *testenv.Client) {
	t.Helper()
	g := sk.GraphQL(`query($id: ID!) { account(id: $id) {
		refunds { edges { node { id } } } disputes { edges { node { id } } } } }`,
		map[string]any{"id": "019bc1bd-cc81-7110-98c4-e1208c31193a"})
	require.Empty(t, g.Errors, string(g.Raw))
	node := func(id string) map[string]any { return map[string]any{"node": map[string]any{"id": id}} }
	require.Equal(t, map[string]any{"account": map[string]any{
		"refunds":  map[string]any{"edges": []any{node("019bc487-e903-7eef-8210-ecab56e06da9")}},
		"disputes": map[string]any{"edges": []any{node("019bc487-e909-7c7a-9e66-2310397c9cab")}},
	}}, g.Data)
}

// idempotentAccountBody is the request fixture 00002's idempotency key
// answered.
const idempotentAccountBody = `{"type":"individual","external_id":"idem-1","profile":{"individual":{` +
	`"name":{"first_name":"Ada","last_name":"Lovelace"},"email":"ada@example.com",` +
	`"phone":{"country_code":"+1","number":"(200) 100-1695"},"ssn":"123-45-6789","birthdate":"1990-12-10",` +
	`"address":{"line_1":"1 Main St","city":"Austin","state":"TX","postal_code":"78701","country":"US"}}}}`

// loadFixture loads the fixture of the migration named name as
// pg_restore --disable-triggers would: triggers (the event fan-out, the
// ledger's) and foreign-key checks off, since the rows are what the
// triggers once wrote and some refer to each other in a loop.
func loadFixture(t *testing.T, conn *pgx.Conn, name string) {
	t.Helper()
	path := filepath.Join("testdata", "fixtures", name+".sql")
	sql, err := os.ReadFile(path)
	require.NoError(t, err, "migration %s has no fixture: see docs/operations.md, Upgrades", name)
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	_, err = tx.Exec(ctx, "SET LOCAL session_replication_role = replica")
	require.NoError(t, err)
	for _, stmt := range strings.Split(string(sql), ";\n") {
		if strings.TrimSpace(stripComments(stmt)) == "" {
			continue
		}
		_, err := tx.Exec(ctx, stmt)
		require.NoError(t, err, "%s: %s", path, stmt)
	}
	require.NoError(t, tx.Commit(ctx))
}

func stripComments(stmt string) string {
	var b strings.Builder
	for _, line := range strings.Split(stmt, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// requireGolden compares body (JSON) with testdata/golden/name.json, or
// writes it there with -update.
func requireGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, json.Indent(&out, body, "", "  "))
	out.WriteByte('\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file: run the test with -update")
	require.Equal(t, string(want), out.String(), "%s reads back differently after the upgrade", name)
}

// requirePendingDeliveriesDelivered points the fixture's endpoint at a
// receiver and runs delivery as a server does: the delivery whose River
// job was waiting and the one the dispatcher had still to enqueue both
// arrive.
func requirePendingDeliveriesDelivered(t *testing.T, env *testenv.Env, db *store.DB) {
	t.Helper()
	received := make(chan string, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var event struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(raw, &event)
		w.WriteHeader(http.StatusNoContent)
		received <- event.ID
	}))
	t.Cleanup(receiver.Close)
	_, err := db.Pool.Exec(context.Background(), "UPDATE webhook_endpoints SET url = $1 WHERE id = $2", receiver.URL, fixtureEndpoint)
	require.NoError(t, err)

	env.StartDelivery(testenv.FastDelivery())
	want := map[string]bool{"019bc2d0-7503-710b-84f1-58839298327d": true, "019bc2d0-7505-7900-99e4-0f8b5cb0499a": true}
	for len(want) > 0 {
		delete(want, <-received) // the test binary's timeout bounds a delivery that never comes
	}
}
