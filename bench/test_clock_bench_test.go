package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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

// clockFleets are the benchmarked sizes: subscriptions on one clock, one
// customer (with a card) each.
var clockFleets = []int{1, 1000}

// BenchmarkTestClockYear advances a test clock twelve months in one call
// over n monthly subscriptions (one customer with a card each, all bound
// to the clock; set up outside the timer) and, beside it, runs the same
// renewals' statements bare (clockyear_bare_test.go). ns/op is one
// advance; ns/subscription-year divides it by n; statements/renewal is
// the advance's statement count (X-Statement-Count) over its renewals,
// the advance's own steps included.
func BenchmarkTestClockYear(b *testing.B) {
	for _, n := range clockFleets {
		b.Run(fmt.Sprintf("api/subscriptions=%d", n), func(b *testing.B) {
			env := testenv.New(b)
			cl, product := clockYearCatalog(env)
			var statements, renewals int
			for i := range b.N {
				b.StopTimer()
				clock := clockYearFleet(b, cl, product, n)
				if i == 0 {
					b.ResetTimer()
				}
				b.StartTimer()
				statements, renewals = advanceYear(b, cl, clock, n)
			}
			reportClockYear(b, n, statements, renewals)
		})
		b.Run(fmt.Sprintf("bare/subscriptions=%d", n), func(b *testing.B) {
			env := testenv.New(b)
			rec, recording := recordingServer(b, env)
			cl, product := clockYearCatalog(env)
			clock := clockYearFleet(b, cl, product, n)
			recording.Store(true)
			statements, renewals := advanceYear(b, cl, clock, n)
			recording.Store(false)
			capture := splitCapture(rec.Take())
			b.ResetTimer()
			for range b.N {
				if err := capture.replay(env.DB, renewals); err != nil {
					b.Fatal(err)
				}
			}
			reportClockYear(b, n, statements, renewals)
			b.ReportMetric(float64(capture.renewalStatements()), "statements/renewal-step")
		})
	}
}

// reportClockYear reports the per-subscription-year time and the
// statements per renewal.
func reportClockYear(b *testing.B, n, statements, renewals int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/subscription-year")
	b.ReportMetric(float64(statements)/float64(renewals), "statements/renewal")
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

// advanceYear advances clock to clockYear in one call and answers the
// statements it ran and the renewals its receipt lists (twelve per
// subscription, or it fails).
func advanceYear(b *testing.B, cl *testenv.Client, clock string, n int) (statements, renewals int) {
	r := cl.Post("/v1/test_helpers/test_clocks/"+clock+"/advance", map[string]any{"frozen_time": clockYear.Unix()})
	if r.Status != http.StatusOK {
		b.Fatalf("advance: %d %s", r.Status, r.Body)
	}
	for _, e := range r.JSON()["receipt"].(map[string]any)["effects"].([]any) {
		if e.(map[string]any)["kind"] == "renewal" {
			renewals++
		}
	}
	if renewals != 12*n {
		b.Fatalf("advance: %d renewals, want %d", renewals, 12*n)
	}
	return r.Statements, renewals
}

// recordingServer serves env's handler on a server of its own whose
// requests record their statements while recording is set, and points
// env's clients at it.
func recordingServer(b *testing.B, env *testenv.Env) (*store.StatementRecorder, *atomic.Bool) {
	rec, on := &store.StatementRecorder{Keep: captureKeep}, &atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if on.Load() {
			r = r.WithContext(store.WithStatementRecorder(r.Context(), rec))
		}
		env.App.Handler.ServeHTTP(w, r)
	}))
	b.Cleanup(srv.Close)
	env.Server = srv
	return rec, on
}
