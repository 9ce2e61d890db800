package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// thresholdTotals reads the payer's running totals as the database holds
// them beside the same aggregates of its unbilled events of the cycle
// [mar1, apr1): the two must agree.
type thresholdTotals struct {
	Events, EventsOfEvents   int64
	Sum, SumOfEvents         string
	Weighted, WeightedEvents string
}

func (f *fixture) thresholdTotals(t *testing.T, customer string) thresholdTotals {
	t.Helper()
	var tt thresholdTotals
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT
		  COALESCE((SELECT sum(t.events) FROM usage_threshold_totals t JOIN usage_thresholds ut ON ut.id = t.threshold_id
		            WHERE ut.customer_id = ?::uuid), 0) AS events,
		  (SELECT count(*) FROM metering_events_billed me WHERE me.customer_id = ?::uuid AND me.billed_by IS NULL
		     AND me.timestamp >= ? AND me.timestamp < ?) AS events_of_events,
		  COALESCE((SELECT sum(t.sum_value) FROM usage_threshold_totals t JOIN usage_thresholds ut ON ut.id = t.threshold_id
		            WHERE ut.customer_id = ?::uuid), 0)::text AS sum,
		  COALESCE((SELECT sum(me.value) FROM metering_events_billed me WHERE me.customer_id = ?::uuid AND me.billed_by IS NULL
		     AND me.timestamp >= ? AND me.timestamp < ?), 0)::text AS sum_of_events,
		  COALESCE((SELECT sum(t.sum_w100) FROM usage_threshold_totals t JOIN usage_thresholds ut ON ut.id = t.threshold_id
		            WHERE ut.customer_id = ?::uuid), 0)::text AS weighted,
		  COALESCE((SELECT sum(me.value * (100 + COALESCE(me.markup_percentage, 0))) FROM metering_events_billed me
		     WHERE me.customer_id = ?::uuid AND me.billed_by IS NULL AND me.timestamp >= ? AND me.timestamp < ?), 0)::text AS weighted_events`,
		customer, customer, mar1, mar1.AddDate(0, 1, 0), customer, customer, mar1, mar1.AddDate(0, 1, 0),
		customer, customer, mar1, mar1.AddDate(0, 1, 0)).Scan(context.Background(),
		&tt.Events, &tt.EventsOfEvents, &tt.Sum, &tt.SumOfEvents, &tt.Weighted, &tt.WeightedEvents))
	return tt
}

// requireTotalsAgree requires the running totals to equal the aggregates
// of the events they stand for.
func (f *fixture) requireTotalsAgree(t *testing.T, customer string) thresholdTotals {
	t.Helper()
	tt := f.thresholdTotals(t, customer)
	require.Equal(t, tt.EventsOfEvents, tt.Events, "events: %+v", tt)
	require.Equal(t, tt.SumOfEvents, tt.Sum, "sum: %+v", tt)
	require.Equal(t, tt.WeightedEvents, tt.Weighted, "weighted: %+v", tt)
	return tt
}

// reportAll sends the events of specs at once, each from its own
// goroutine, and answers them in specs' order.
func reportAll(t *testing.T, f *fixture, specs []testenv.MeteringEventSpec) []*testenv.Response {
	t.Helper()
	out := make([]*testenv.Response, len(specs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range specs {
		wg.Go(func() {
			<-start
			out[i] = f.sk.Post(meteringEventsPath, s.RESTBody())
		})
	}
	close(start)
	wg.Wait()
	return out
}

// Concurrent ingests of one payer add to its running totals one after the
// other (the threshold's row lock): below the threshold the totals equal
// the events' own aggregates exactly (decimals and markups included), and
// the ingests that cross it make exactly one automatic charge, of every
// event of the cycle.
func TestThresholdIngestsRacingCrossItOnceAndKeepTheTotalsExact(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	const n = 12
	at := iso(mar15.Add(-time.Hour))
	// Far below a threshold: the totals are the events' sums.
	f.sk.SetUsageThreshold(p.customer, 1_000_000)
	specs := make([]testenv.MeteringEventSpec, n)
	for i := range specs {
		specs[i] = testenv.MeteringEvent(apiCalls, fmt.Sprintf("below-%d", i), p.customer).WithValue(fmt.Sprintf("%d.25", i)).At(at)
		if i%3 == 0 {
			specs[i].MarkupPercentage = "12.5"
		}
	}
	for _, r := range reportAll(t, f, specs) {
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		require.Nil(t, r.JSON()["invoice"])
	}
	tt := f.requireTotalsAgree(t, p.customer)
	require.EqualValues(t, n, tt.Events)
	require.Equal(t, "69.00", tt.Sum, "0.25 + 1.25 + … + 11.25")

	// A threshold the n next events reach together, at the last of them.
	pending := int64(f.sk.Get(thresholdProgress + "?customer=" + p.customer).JSON()["accumulated_amount_cents"].(float64))
	f.sk.SetUsageThreshold(p.customer, pending+n*100)
	for i := range specs {
		specs[i] = testenv.MeteringEvent(apiCalls, fmt.Sprintf("cross-%d", i), p.customer).WithValue("1").At(at)
	}
	invoices := map[string]int{}
	for _, r := range reportAll(t, f, specs) {
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		if inv, ok := r.JSON()["invoice"].(string); ok {
			invoices[inv]++
		}
	}
	require.Len(t, invoices, 1, "one automatic charge: %v", invoices)
	for inv, answered := range invoices {
		require.Equal(t, 1, answered, "only the event that reached it names it")
		got := f.sk.Get("/v1/invoices/" + inv).JSON()
		require.Equal(t, "paid", got["status"])
		require.EqualValues(t, pending+n*100, got["total"], "every event of the cycle")
	}
	tt = f.requireTotalsAgree(t, p.customer)
	require.Zero(t, tt.Events, "the charge claimed the cycle; its totals start again")
	f.requireUsageInvariants(t)
}

// Whatever changes the cycle's unbilled events besides an ingest (a
// correction, a usage invoice of part of the cycle) is followed by the
// totals: the next ingest computes them from the events again, so the
// charge decision is the events' own.
func TestThresholdTotalsFollowCorrectionsAndUsageInvoices(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	f.sk.SetUsageThreshold(p.customer, 950)
	first := p.report(t, f, apiCalls, "a", "3", mar15.Add(-3*time.Hour))
	p.report(t, f, apiCalls, "b", "4", mar15.Add(-150*time.Minute))
	r := f.sk.Patch("/v1/billing/metering_events/"+id(first), map[string]any{"value": 5})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	// 5 + 4 + 0.5 = 9.5 units reach 950 (3 + 4 + 0.5 would not).
	ev := p.report(t, f, apiCalls, "c", "0.5", mar15.Add(-2*time.Hour))
	require.NotNil(t, ev["invoice"], "the corrected value counts")
	require.EqualValues(t, 950, f.sk.Get("/v1/invoices/" + ev["invoice"].(string)).JSON()["total"])
	f.requireTotalsAgree(t, p.customer)

	// A usage invoice bills part of the cycle: what it claimed no longer
	// accumulates.
	p.report(t, f, apiCalls, "d", "6", mar15.Add(-time.Hour))
	p.bill(t, f, mar1, mar15.Add(-30*time.Minute), nil)
	ev = p.report(t, f, apiCalls, "e", "5", mar15)
	require.Nil(t, ev["invoice"], "500 of the cycle stay unbilled, below 950")
	require.EqualValues(t, 500, f.sk.Get(thresholdProgress + "?customer=" + p.customer).JSON()["accumulated_amount_cents"])
	f.requireTotalsAgree(t, p.customer)
	f.requireUsageInvariants(t)
}

// A charge that cannot be made leaves the events billed by their open
// invoice: the totals start again, and the next events that reach the
// threshold charge again. An ingest whose charge would pass the bound on
// money is refused whole: the totals do not hold its event.
func TestThresholdTotalsAfterAFailedCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	clock := f.sk.CreateTestClock(testenv.TestClock(mar15))
	p := usagePayer{clock: id(clock), customer: id(f.sk.CreateClockedCustomer(id(clock)))} // no card
	product := testenv.Product()
	product.DefaultPrice = 500
	f.sk.PriceMeter(apiCalls, id(f.sk.CreateProduct(product)), "")
	f.sk.SetUsageThreshold(p.customer, 1000)
	first := p.report(t, f, apiCalls, "a", "2", mar15)
	require.Equal(t, "open", f.sk.Get("/v1/invoices/" + first["invoice"].(string)).JSON()["status"], "the charge could not be made")
	require.Zero(t, f.requireTotalsAgree(t, p.customer).Events)
	require.Nil(t, p.report(t, f, apiCalls, "b", "1", mar15)["invoice"], "500 of 1000")
	second := p.report(t, f, apiCalls, "c", "1", mar15)
	require.NotNil(t, second["invoice"])
	require.NotEqual(t, first["invoice"], second["invoice"])
	require.EqualValues(t, 1000, f.sk.Get("/v1/invoices/" + second["invoice"].(string)).JSON()["total"])

	p.report(t, f, apiCalls, "d", "1", mar15)
	r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, "huge", p.customer).WithValue("999999999").At(iso(mar15)).RESTBody())
	requireValidation(t, r, "value")
	tt := f.requireTotalsAgree(t, p.customer)
	require.EqualValues(t, 1, tt.Events, "the refused event is in neither")
	require.Equal(t, "1", tt.Sum)
}
