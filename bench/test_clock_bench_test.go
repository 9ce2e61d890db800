package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// clockStart is where every benchmark clock starts, the subscriptions'
// anchor; clockYear is twelve monthly periods later, where the thirteenth
// period starts: an advance to it renews each subscription twelve times.
var (
	clockStart = time.Date(2026, 1, 31, 9, 30, 0, 0, time.UTC)
	clockYear  = time.Date(2027, 1, 31, 9, 30, 0, 0, time.UTC)
)

// clockYearCase is a benchmarked size: perClock subscriptions (one
// customer with a card each) bound to each of clocks clocks, each clock
// advanced a year in its own call.
type clockYearCase struct {
	name             string
	clocks, perClock int
}

// clockYearCases: one subscription advanced alone, ten times (ten
// samples of the one-subscription year), and 1,000 subscriptions as 50
// clocks of 20, so that the API and its bare replay alternate every
// twenty subscription-years (seconds, on a loaded machine) instead of
// running minutes apart. Each advance adds its own 12 statements, 0.05
// per renewal at 20 subscriptions a clock.
var clockYearCases = []clockYearCase{
	{name: "subscriptions=1", clocks: 10, perClock: 1},
	{name: "subscriptions=1000", clocks: 50, perClock: 20},
}

// BenchmarkTestClockYear advances test clocks twelve months over monthly
// subscriptions and runs the same advances' statements bare beside them,
// interleaved: for each clock in turn its advance through the API
// (timed, its statements recorded), then that capture replayed bare
// (timed; clockyear_bare_test.go). Both halves of a clock run within
// seconds of each other, so both see the same load of the machine, and
// the ratio is summed over the clocks (clockyear_report_test.go). ns/op
// is the API's time for all the clocks' advances; set-up (the clocks,
// customers, cards and subscriptions, all through the API) is outside it.
//
// The API's requests carry the pprof label clockyear=api and the bare
// replays clockyear=bare, so a CPU profile of the run (-cpuprofile)
// separates the server's Go work from the replay's (pprof -tagfocus).
func BenchmarkTestClockYear(b *testing.B) {
	for _, c := range clockYearCases {
		b.Run(c.name, func(b *testing.B) {
			// A budget that holds a clock's year, so each advance
			// answers 200 in its one call, as it is measured.
			env := testenv.New(b, testenv.WithAdvanceBudget(12*c.perClock))
			rec, recording := recordingServer(b, env)
			cl, product := clockYearCatalog(env)
			var run clockYearRun
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				clocks := make([]string, c.clocks)
				for i := range clocks {
					clocks[i] = clockYearFleet(b, cl, product, c.perClock)
				}
				for _, clock := range clocks {
					run.chunks = append(run.chunks, clockYearChunk(b, env, cl, rec, recording, clock, c.perClock))
				}
			}
			run.report(b, c.perClock)
		})
	}
}

// clockYearChunk advances one clock of n subscriptions a year through the
// API with the benchmark's timer running and its statements recorded,
// then replays the recorded statements bare, and answers both times.
func clockYearChunk(b *testing.B, env *testenv.Env, cl *testenv.Client, rec *store.StatementRecorder,
	recording *atomic.Bool, clock string, n int) clockYearMeasure {
	recording.Store(true)
	b.StartTimer()
	start := time.Now()
	r := cl.Post("/v1/test_helpers/test_clocks/"+clock+"/advance", map[string]any{"frozen_time": clockYear.Unix()})
	api := time.Since(start)
	b.StopTimer()
	recording.Store(false)
	capture := splitCapture(rec.Take())
	renewals := advanceRenewals(b, r, n)
	replay := capture.freshened()

	start = time.Now()
	var err error
	pprof.Do(b.Context(), pprof.Labels("clockyear", "bare"), func(ctx context.Context) {
		err = replay.replay(ctx, env.DB)
	})
	bare := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	return clockYearMeasure{subscriptions: n, renewals: renewals, statements: r.Statements,
		stepStatements: capture.renewalStatements(), api: api, bare: bare}
}

// clockYearCatalog sets up the merchant's pricing and a monthly product
// of 20.00.
func clockYearCatalog(env *testenv.Env) (*testenv.Client, string) {
	cl := env.Client(env.Keys.Sandbox.Secret)
	cl.StandardPricing()
	p := testenv.Product()
	p.DefaultPrice, p.RecurringInterval = 2000, "monthly"
	return cl, cl.CreateProduct(p).ID.String()
}

// clockYearFleet creates a clock at clockStart and n customers bound to
// it, each with a card and a subscription to product; it answers the
// clock's id.
func clockYearFleet(b *testing.B, cl *testenv.Client, product string, n int) string {
	r := cl.Post("/v1/test_helpers/test_clocks", map[string]any{"frozen_time": clockStart.Unix(), "name": "bench"})
	if r.Status != http.StatusCreated {
		b.Fatalf("clock: %d %s", r.Status, r.Body)
	}
	clock := r.JSON()["id"].(string)
	for range n {
		body := testenv.Customer().RESTBody()
		body["test_clock"] = clock
		r := cl.Post("/v1/customers", body)
		if r.Status != http.StatusCreated {
			b.Fatalf("customer: %d %s", r.Status, r.Body)
		}
		customer := r.JSON()["id"].(string)
		cl.CreateCard(customer, testenv.Visa)
		r = cl.Post("/v1/subscriptions", map[string]any{"customer": customer, "product": product, "currency": "usd"})
		if r.Status != http.StatusCreated {
			b.Fatalf("subscription: %d %s", r.Status, r.Body)
		}
	}
	return clock
}

// advanceRenewals checks an advance's answer and counts the renewals its
// receipt lists (twelve per subscription, or it fails).
func advanceRenewals(b *testing.B, r *testenv.Response, n int) int {
	if r.Status != http.StatusOK {
		b.Fatalf("advance: %d %s", r.Status, r.Body)
	}
	renewals := 0
	for _, e := range r.JSON()["receipt"].(map[string]any)["effects"].([]any) {
		if e.(map[string]any)["kind"] == "renewal" {
			renewals++
		}
	}
	if renewals != 12*n {
		b.Fatalf("advance: %d renewals, want %d", renewals, 12*n)
	}
	return renewals
}

// recordingServer serves env's handler on a server of its own whose
// requests, while recording is set, record their statements and carry
// the pprof label clockyear=api; it points env's clients at it.
func recordingServer(b *testing.B, env *testenv.Env) (*store.StatementRecorder, *atomic.Bool) {
	rec, on := &store.StatementRecorder{}, &atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !on.Load() {
			env.App.Handler.ServeHTTP(w, r)
			return
		}
		pprof.Do(store.WithStatementRecorder(r.Context(), rec), pprof.Labels("clockyear", "api"), func(ctx context.Context) {
			env.App.Handler.ServeHTTP(w, r.WithContext(ctx))
		})
	}))
	b.Cleanup(srv.Close)
	env.Server = srv
	return rec, on
}
