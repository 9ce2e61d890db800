package failover_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

var (
	writers    = flag.Int("drill-writers", 4, "concurrent writers")
	killAfter  = flag.Int("drill-kill-after", 24, "acknowledged writes before the primary is killed")
	writeAfter = flag.Int("drill-writes-after", 24, "acknowledged writes after the promotion before the drill ends")
)

func TestMain(m *testing.M) { testdb.Main(m) }

// liveGuard bounds a wait that ends unless the drill has failed; it
// guards against hanging, never for speed.
const liveGuard = 3 * time.Minute

// drill is the state the writers share.
type drill struct {
	mu          sync.Mutex
	acked       map[string]string // idempotency key → transfer id
	retried     map[string]bool   // keys whose first attempt failed
	firstFail   time.Time         // wall clock, for the unavailability figure only
	firstAfter  time.Time
	promoted    bool
	ackedBefore int
	ackedAfter  int
}

// TestFailoverLosesNoAcknowledgedWrite kills the primary under a load of
// charges, promotes its synchronous standby, and checks on the new
// primary: every acknowledged charge is there, none twice, every request
// that failed in flight succeeded once when retried with its
// Idempotency-Key, jobs run again, and the ledger balances.
func TestFailoverLosesNoAcknowledgedWrite(t *testing.T) {
	ctx := context.Background()
	rp := testdb.NewReplicated(t, "failover")
	makeSynchronous(t, rp)
	e := testenv.Open(t, multiHostURL(t, rp))
	e.Merchant, e.Keys = e.NewMerchant(authMerchant())
	e.StartJobs()
	sk := e.Client(e.Keys.Sandbox.Secret)
	sk.StandardPricing()
	payer := sk.CreateAccount(testenv.Individual())
	card := sk.CreateAccountCard(payer["id"].(string), "4242424242424242")

	d := &drill{acked: map[string]string{}, retried: map[string]bool{}}
	killed := make(chan struct{})
	var killOnce sync.Once
	var wg sync.WaitGroup
	for w := range *writers {
		wg.Go(func() {
			for n := 0; ; n++ {
				if d.done() {
					return
				}
				key := "drill-" + strconv.Itoa(w) + "-" + strconv.Itoa(n)
				d.write(t, sk, key, payer["id"].(string), card.ID.String(), int64(100+n))
				if d.ackedCount() >= *killAfter {
					killOnce.Do(func() { close(killed) })
				}
			}
		})
	}
	select {
	case <-killed:
	case <-time.After(liveGuard):
		t.Fatal("the writers never reached the kill")
	}
	rp.Primary.Kill()
	pctx, cancel := context.WithTimeout(ctx, liveGuard)
	defer cancel()
	require.NoError(t, rp.Standby.Promote(pctx))
	d.mu.Lock()
	d.promoted = true
	d.mu.Unlock()
	wg.Wait()

	// On the promoted standby, through the server's own pool.
	conn, err := pgx.Connect(ctx, rp.ReplicaURL())
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	rows, err := conn.Query(ctx, `SELECT metadata->>'drill_key', id::text FROM transfers WHERE metadata ? 'drill_key'`)
	require.NoError(t, err)
	stored := map[string][]string{}
	for rows.Next() {
		var key, id string
		require.NoError(t, rows.Scan(&key, &id))
		stored[key] = append(stored[key], id)
	}
	require.NoError(t, rows.Err())
	found, duplicated := 0, 0
	for key, id := range d.acked {
		if len(stored[key]) > 0 && stored[key][0] == id {
			found++
		}
	}
	for _, ids := range stored {
		if len(ids) > 1 {
			duplicated++
		}
	}
	retriedOnce := 0
	for key := range d.retried {
		if _, ok := d.acked[key]; ok && len(stored[key]) == 1 {
			retriedOnce++
		}
	}
	unavailable := d.firstAfter.Sub(d.firstFail).Seconds()
	report := fmt.Sprintf("failover drill: writes acknowledged %d, found %d, duplicated %d; "+
		"failed in flight and retried %d, succeeded once %d; unavailable %.2fs",
		len(d.acked), found, duplicated, len(d.retried), retriedOnce, unavailable)
	t.Log(report)
	fmt.Println(report)

	require.Equal(t, len(d.acked), found, "every acknowledged write is on the promoted standby")
	require.Zero(t, duplicated, "no write happened twice")
	require.Equal(t, len(d.retried), retriedOnce, "every write that failed in flight succeeded once when retried")
	require.Equal(t, len(d.acked), len(stored), "nothing was written that was not acknowledged")

	// Jobs resume: one enqueued in a write after the failover is worked.
	acct := sk.CreateAccount(testenv.VerifiableIndividual("+12001001695"))
	r := sk.Post("/v1/accounts/"+acct["id"].(string)+"/identity_verifications", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	runPath := "/v1/accounts/" + acct["id"].(string) + "/identity_verifications/" + r.JSON()["id"].(string)
	deadline := time.Now().Add(liveGuard)
	for sk.Get(runPath).JSON()["status"] == "pending" {
		require.True(t, time.Now().Before(deadline), "the job after the failover was not worked")
		require.NoError(t, clock.Sleep(ctx, 20*time.Millisecond))
	}

	drift, err := ledger.Audit(ctx, e.DB.Tenant(store.Scope{MerchantID: e.Merchant.ID}))
	require.NoError(t, err)
	require.Empty(t, drift, "the ledger balances")
}

// write charges the card under key until the API acknowledges it: a
// failed attempt (the primary gone, the standby not yet promoted) is
// retried with the same Idempotency-Key, as a client does.
func (d *drill) write(t *testing.T, sk *testenv.Client, key, account, card string, amount int64) {
	body := testenv.Charge(account, card, amount).WithMetadata(map[string]string{"drill_key": key}).RESTBody()
	deadline := time.Now().Add(liveGuard)
	for {
		r := sk.Do(http.MethodPost, "/v1/transfers", body, http.Header{"Idempotency-Key": {key}})
		if r.Status == http.StatusCreated {
			d.ack(key, r.JSON()["id"].(string))
			return
		}
		require.Contains(t, []int{http.StatusServiceUnavailable, http.StatusInternalServerError, http.StatusConflict},
			r.Status, "only an outage may refuse a drill write: %s", r.Body)
		d.fail(key)
		require.True(t, time.Now().Before(deadline), "write %s never succeeded: %s", key, r.Body)
		_ = clock.Sleep(context.Background(), 10*time.Millisecond) // paces the retries
	}
}

func (d *drill) ack(key, id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.acked[key] = id
	if !d.firstFail.IsZero() && d.firstAfter.IsZero() {
		d.firstAfter = time.Now() // clock: the unavailability figure only
	}
	if d.promoted {
		d.ackedAfter++
	} else {
		d.ackedBefore++
	}
}

func (d *drill) fail(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.retried[key] = true
	if d.firstFail.IsZero() {
		d.firstFail = time.Now() // clock: the unavailability figure only
	}
}

func (d *drill) ackedCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.acked)
}

func (d *drill) done() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.promoted && d.ackedAfter >= *writeAfter
}

// makeSynchronous makes the standby synchronous (the zero-loss setting:
// a commit is acknowledged once the standby has flushed it) and waits
// until the primary reports it so.
func makeSynchronous(t *testing.T, rp *testdb.Replicated) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveGuard)
	defer cancel()
	conn, err := pgx.Connect(ctx, rp.PrimaryURL())
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	_, err = conn.Exec(ctx, `ALTER SYSTEM SET synchronous_standby_names = 'failover'`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `SELECT pg_reload_conf()`)
	require.NoError(t, err)
	for {
		var state string
		err := conn.QueryRow(ctx, `SELECT coalesce(max(sync_state), '') FROM pg_stat_replication WHERE application_name = 'failover'`).Scan(&state)
		require.NoError(t, err)
		if state == "sync" {
			return
		}
		require.NoError(t, clock.Sleep(ctx, 10*time.Millisecond))
	}
}

// multiHostURL names both servers, the primary first, and asks for the one
// that accepts writes: after the promotion, new connections find the
// standby.
func multiHostURL(t *testing.T, rp *testdb.Replicated) string {
	t.Helper()
	u, err := url.Parse(rp.PrimaryURL())
	require.NoError(t, err)
	standby, err := url.Parse(rp.ReplicaURL())
	require.NoError(t, err)
	u.Host = u.Host + "," + standby.Host
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	u.RawQuery = q.Encode()
	require.True(t, strings.Contains(u.String(), ","))
	return u.String()
}

func authMerchant() auth.NewMerchant { return auth.NewMerchant{Name: "Failover"} }
