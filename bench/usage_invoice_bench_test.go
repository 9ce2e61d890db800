package bench

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// usageWindow is the window every benchmarked usage invoice bills: the
// payer's clock stands at its end.
var (
	usageFrom = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	usageTo   = time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)
)

// BenchmarkUsageInvoice bills a usage invoice over a window holding 10,000
// and 1,000,000 unbilled events of one payer: the aggregate is one
// statement in the database and the window recorded bills the events (no
// event row is written), so statements/op is the same at both sizes and
// B/op (the server's Go memory, in this process) stays flat; the time is
// flat too: the window's whole hours are read from their rollups (migration
// 00053), its edge hours' events from the index. Each operation has a payer
// of its own whose events are inserted, outside the timer, by one INSERT …
// SELECT generate_series (a million API calls would take hours; the insert's
// statement trigger rolls them up), then analyzed.
func BenchmarkUsageInvoice(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			cl.StandardPricing()
			product := testenv.Product()
			product.DefaultPrice = 3
			cl.PriceMeter("api.calls", cl.CreateProduct(product).ID.String(), "")
			statements := 0
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				customer := usagePayer(b, env, cl, fmt.Sprintf("op%d", i), n)
				b.StartTimer()
				r := cl.Post("/v1/billing/billing_invoice", testenv.UsageInvoice(customer,
					usageFrom.Format(time.RFC3339), usageTo.Format(time.RFC3339)).RESTBody())
				if r.Status != http.StatusCreated {
					b.Fatalf("usage invoice: %d %s", r.Status, r.Body)
				}
				if want := int64(3 * (n / 10 * 55)); int64(r.JSON()["total"].(float64)) != want {
					b.Fatalf("usage invoice total %v, want %d", r.JSON()["total"], want)
				}
				statements = r.Statements
			}
			b.ReportMetric(float64(statements), "statements/op")
			b.ReportMetric(float64(n), "events/op")
		})
	}
}

// usagePayer makes a customer with a card on a clock at usageTo and
// inserts n unbilled events of api.calls for it inside the window (event
// i has value i mod 10 + 1: ten events sum to 55), in one statement, then
// analyzes the table so the plan sees them.
func usagePayer(b *testing.B, env *testenv.Env, cl *testenv.Client, label string, n int) string {
	b.Helper()
	clock := cl.CreateTestClock(testenv.TestClock(usageTo))
	customer := cl.CreateClockedCustomer(clock.ID.String()).ID.String()
	cl.CreateCard(customer, testenv.Visa)
	ctx := context.Background()
	if _, err := env.DB.Bun.ExecContext(ctx, `INSERT INTO metering_events (merchant_id, id, livemode, meter_id, event_name,
		reference, customer_id, value, "timestamp", created, updated)
		SELECT bm.merchant_id, gen_random_uuid(), false, bm.id, bm.event_name, ? || '-' || i, ?::uuid, i % 10 + 1,
		       ?::timestamptz + (?::timestamptz - ?::timestamptz) * i / (? + 1), ?::timestamptz, ?::timestamptz
		FROM billing_meters AS bm, generate_series(1, ?) AS i
		WHERE bm.merchant_id = ? AND bm.livemode = false AND bm.event_name = 'api.calls'`,
		label, customer, usageFrom, usageTo, usageFrom, n, usageTo, usageTo, n, env.Merchant.ID); err != nil {
		b.Fatalf("seed %d events: %v", n, err)
	}
	if _, err := env.DB.Bun.ExecContext(ctx, "VACUUM ANALYZE metering_events"); err != nil {
		b.Fatalf("analyze: %v", err)
	}
	return customer
}
