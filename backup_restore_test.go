package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// The README's backup and restore, as an operator runs them: a server at
// work is backed up while it runs, the backup is restored into a fresh data
// dir, and the server started there carries on where the backup stopped.
// An idempotency key of the backup replays its response, a webhook
// delivery pending at the time is delivered once, and the books balance.
func TestBackupAndRestore(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for _, shown := range []string{"`go run . backup --out payments.backup`", "`go run . restore --in payments.backup`", "`--force`"} {
		require.Contains(t, string(readme), shown, "the README shows the command this test runs")
	}
	hooks := newBlockingReceiver()
	t.Cleanup(hooks.close)

	before := &readmeUser{dir: dataDir(t)}
	m := before.createMerchant(t, "--name", "Backed Up", "--json", "--with-default-fees")
	sk := m.APIKeys.Sandbox.Secret
	url := before.serve(t)

	// A charge made with an idempotency key.
	status, a := call(t, sk, http.MethodPost, url+"/v1/accounts",
		`{"type":"individual","profile":{"individual":{"name":{"first_name":"Grace","last_name":"Hopper"}}}}`)
	require.Equal(t, http.StatusCreated, status, a)
	status, card := call(t, sk, http.MethodPost, url+"/v1/payment_methods",
		`{"type":"card","card_number":"4242424242424242","exp_month":12,"exp_year":30,"cvc":"123","account":"`+a["id"].(string)+`"}`)
	require.Equal(t, http.StatusCreated, status, card)
	charge := `{"amount":1000,"account_id":"` + a["id"].(string) + `","source_payment_method_id":"` + card["id"].(string) + `","confirm":true}`
	status, tr := call(t, sk, http.MethodPost, url+"/v1/transfers", charge, "Idempotency-Key", "charge-1")
	require.Equal(t, http.StatusCreated, status, tr)
	require.Equal(t, "succeeded", tr["status"], tr)

	// A webhook delivery under way while the backup is taken: the receiver
	// holds the first attempt until the backup is written.
	status, ep := call(t, sk, http.MethodPost, url+"/v1/webhook_endpoints",
		`{"url":"`+hooks.server.URL+`","event_codes":["customer.created"]}`)
	require.Equal(t, http.StatusCreated, status, ep)
	status, cus := call(t, sk, http.MethodPost, url+"/v1/customers", `{"email":"ada@example.com","name":"Ada"}`)
	require.Equal(t, http.StatusCreated, status, cus)
	eventID := <-hooks.held

	backup := filepath.Join(t.TempDir(), "payments.backup") // the README's file name
	out, errOut, code := before.run(t, "backup", "--out", backup)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, backup)
	hooks.release() // the attempt of the server backed up fails: it did not deliver

	after := &readmeUser{dir: dataDir(t)}
	out, errOut, code = after.run(t, "restore", "--in", backup)
	require.Equal(t, 0, code, errOut)
	// The delivery under way at the backup is among the interrupted jobs
	// (others, such as a settlement, may be running at that moment too);
	// that it is delivered once is checked below.
	requeued := regexp.MustCompile(`\((\d+) interrupted jobs will run again\)`).FindStringSubmatch(out)
	require.NotNil(t, requeued, out)
	n, _ := strconv.Atoi(requeued[1])
	require.GreaterOrEqual(t, n, 1, "the delivery under way at the backup")
	_, errOut, code = after.run(t, "restore", "--in", backup)
	require.Equal(t, 1, code, "a database that is not empty is refused")
	require.Contains(t, errOut, "--force")
	_, errOut, code = after.run(t, "restore", "--in", backup, "--force")
	require.Equal(t, 0, code, "--force replaces what the database holds: %s", errOut)

	url = after.serve(t)
	status, again := call(t, sk, http.MethodPost, url+"/v1/transfers", charge, "Idempotency-Key", "charge-1")
	require.Equal(t, http.StatusCreated, status, again)
	require.Equal(t, tr, again, "the idempotency key replays the response of the backup")

	require.Equal(t, eventID, <-hooks.delivered, "the pending delivery is delivered after the restore")
	delivery := waitDeliverySettled(t, url, sk, ep["id"].(string), eventID)
	require.Equal(t, "succeeded", delivery["status"], delivery)
	require.Equal(t, 1, hooks.deliveries(eventID), "delivered once")

	requireRestoredBooksBalance(t, after.dir, m.Merchant.ID)
}

// waitDeliverySettled reads the endpoint's delivery of the event until it
// is no longer pending (the receiver has answered; the server records the
// attempt a moment later).
func waitDeliverySettled(t *testing.T, url, sk, endpointID, eventID string) map[string]any {
	t.Helper()
	var settled map[string]any
	poll.Until(t, "the delivery to settle", func() bool {
		status, page := call(t, sk, http.MethodGet, url+"/v1/webhook_endpoints/"+endpointID+"/deliveries?event_id="+eventID, "")
		require.Equal(t, http.StatusOK, status, page)
		items, _ := page["data"].([]any)
		require.Len(t, items, 1, page)
		settled = items[0].(map[string]any)
		return settled["status"] != "pending"
	})
	return settled
}

// requireRestoredBooksBalance audits the ledger of the restored database:
// every balance is the sum of its entries and the books sum to zero.
func requireRestoredBooksBalance(t *testing.T, dir, merchantID string) {
	t.Helper()
	ctx := context.Background()
	pg, err := pgembed.Start(ctx, pgembed.Options{DataDir: dir}) // attaches to the server's
	require.NoError(t, err)
	db, err := store.Open(ctx, pg.URL(embeddedDatabase), 2)
	require.NoError(t, err)
	defer db.Close()
	drift, err := ledger.Audit(ctx, db.Tenant(store.Scope{MerchantID: uuid.MustParse(merchantID)}))
	require.NoError(t, err)
	require.Empty(t, drift)
	merchant, err := ledger.Balance(ctx, db.Tenant(store.Scope{MerchantID: uuid.MustParse(merchantID)}), "merchant", "USD")
	require.NoError(t, err)
	require.NotZero(t, merchant, "the charge of the backup is in the restored books")
}

// blockingReceiver is a webhook endpoint that holds its first request
// until released and then fails it, and accepts every later one.
type blockingReceiver struct {
	server    *httptest.Server
	held      chan string // the event id of the held request
	delivered chan string // event ids accepted
	unblock   chan struct{}
	once      sync.Once

	mu       sync.Mutex
	first    bool
	accepted map[string]int
}

func newBlockingReceiver() *blockingReceiver {
	r := &blockingReceiver{held: make(chan string, 1), delivered: make(chan string, 16),
		unblock: make(chan struct{}), accepted: map[string]int{}}
	r.server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

func (r *blockingReceiver) serve(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(req.Body)
	var event struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &event)
	r.mu.Lock()
	first := !r.first
	r.first = true
	r.mu.Unlock()
	if first {
		r.held <- event.ID
		<-r.unblock
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	r.mu.Lock()
	r.accepted[event.ID]++
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
	r.delivered <- event.ID
}

func (r *blockingReceiver) deliveries(eventID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.accepted[eventID]
}

func (r *blockingReceiver) release() { r.once.Do(func() { close(r.unblock) }) }

func (r *blockingReceiver) close() {
	r.release()
	r.server.Close()
}
