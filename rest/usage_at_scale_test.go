package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// usageScales are the sizes of pending usage the statement counts are
// compared at: a handful of events, and two thousand times as many.
var usageScales = []int{10, 20_000}

// seedUsage inserts n unbilled events of p's api.calls meter in one
// statement (reporting them through the API would take n requests):
// event i (1…n) has value i mod 10 + 1, so ten events sum to 55, and its
// timestamp lies inside [mar1, mar15), the payer's current cycle.
func (f *fixture) seedUsage(t *testing.T, p usagePayer, n int) {
	t.Helper()
	f.exec(t, `INSERT INTO metering_events (merchant_id, id, livemode, meter_id, event_name, reference, customer_id, value,
		"timestamp", created, updated)
		SELECT bm.merchant_id, gen_random_uuid(), false, bm.id, bm.event_name, ? || '-' || i, ?::uuid, i % 10 + 1,
		       ?::timestamptz + (?::timestamptz - ?::timestamptz) * i / (? + 1), ?::timestamptz, ?::timestamptz
		FROM billing_meters AS bm, generate_series(1, ?) AS i
		WHERE bm.merchant_id = ? AND bm.livemode = false AND bm.event_name = ?`,
		p.customer, p.customer, mar1, mar15, mar1, n, mar15, mar15, n, f.env.Merchant.ID, apiCalls)
}

// seededUsage is the usage seedUsage gives n events (n a multiple of ten).
func seededUsage(n int) int64 { return int64(n / 10 * 55) }

// A usage invoice costs the same statements for ten events or twenty
// thousand: the events are aggregated by the window's predicate in the
// database, never read one by one, and billed by the window recorded, no
// event row written; the line still bills their exact usage.
func TestUsageInvoiceStatementsDoNotGrowWithItsEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	statements := map[int]int{}
	for _, n := range usageScales {
		p := newUsageCustomer(t, f, 3)
		f.seedUsage(t, p, n)
		r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody())
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		inv := r.JSON()
		ls := lines(inv)
		require.Len(t, ls, 1)
		require.Equal(t, strconv.FormatInt(seededUsage(n), 10), ls[0]["usage"], "n=%d", n)
		require.EqualValues(t, 3*seededUsage(n), inv["total"], "n=%d", n)
		statements[n] = r.Statements
	}
	require.NotZero(t, statements[usageScales[0]])
	require.Equal(t, statements[usageScales[0]], statements[usageScales[1]], "statements by events: %v", statements)
	f.requireUsageInvariants(t)
}

// An event reported for a payer with a threshold costs the same
// statements whatever the cycle's pending usage, below the threshold and
// when it reaches it (the auto-charge claims the cycle by its predicate).
func TestThresholdIngestStatementsDoNotGrowWithThePendingUsage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	below, reached := map[int]int{}, map[int]int{}
	for _, n := range usageScales {
		p := newUsageCustomer(t, f, 3)
		f.seedUsage(t, p, n)
		pending := 3 * seededUsage(n)
		// One more unit (3 cents) stays below; the second reaches it.
		f.sk.SetUsageThreshold(p.customer, pending+4)
		at := mar15.Add(-time.Hour)
		r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, fmt.Sprintf("below-%d", n), p.customer).
			WithValue("1").At(iso(at)).RESTBody())
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		require.Nil(t, r.JSON()["invoice"], "n=%d: below the threshold", n)
		below[n] = r.Statements
		r = f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, fmt.Sprintf("reached-%d", n), p.customer).
			WithValue("1").At(iso(at)).RESTBody())
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		invoice, _ := r.JSON()["invoice"].(string)
		require.NotEmpty(t, invoice, "n=%d: the threshold is reached", n)
		reached[n] = r.Statements
		inv := f.sk.Get("/v1/invoices/" + invoice).JSON()
		require.EqualValues(t, pending+6, inv["total"], "n=%d: the cycle's usage, the two events with it", n)
	}
	require.Equal(t, below[usageScales[0]], below[usageScales[1]], "below the threshold: %v", below)
	require.Equal(t, reached[usageScales[0]], reached[usageScales[1]], "reaching the threshold: %v", reached)
	f.requireUsageInvariants(t)
}
