package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A usage invoice reads the hours wholly inside its window from the
// rollups and its partial edge hours from the events: for random events,
// corrections (of value, and of timestamp across hours), events claimed by
// an auto-charge and windows cut at random seconds (some within one hour,
// some on hour boundaries), each invoice bills exactly the plain sum of
// its window's unclaimed events.
func TestUsageInvoiceOfRollupsEqualsTheSumOfItsEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	rng := rand.New(rand.NewPCG(37, 53))
	span := int(mar15.Sub(mar1) / time.Second)
	at := func() time.Time {
		if rng.IntN(3) == 0 { // on an hour's edge or a second beside it
			return mar1.Add(time.Duration(1+rng.IntN(span/3600-1))*time.Hour + time.Duration(rng.IntN(3)-1)*time.Second)
		}
		return mar1.Add(time.Duration(rng.IntN(span)) * time.Second)
	}
	var events []string
	report := func(from, to int) {
		for i := from; i < to; i++ {
			ev := p.report(t, f, apiCalls, fmt.Sprintf("r%d", i), strconv.Itoa(1+rng.IntN(9)), at())
			events = append(events, id(ev))
		}
	}
	correct := func(ids []string) {
		for _, ev := range ids {
			body := map[string]any{"value": 1 + rng.IntN(20)}
			if rng.IntN(2) == 0 {
				body["timestamp"] = iso(at().Add(time.Hour))
			}
			r := f.sk.Patch(meteringEventsPath+"/"+ev, body)
			require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		}
	}
	// 45 events, 10 of them corrected, then claimed by an auto-charge
	// (the threshold is reached by the 46th); 14 more, 8 corrected.
	report(0, 45)
	correct(events[:10])
	r := f.sk.Post(thresholdsPath, map[string]any{"customer": p.customer, "threshold_amount_cents": 1500})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	report(45, 60)
	correct(events[50:58])
	var claimed int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM metering_events WHERE customer_id = ? AND invoice_id IS NOT NULL`,
		p.customer).Scan(context.Background(), &claimed))
	require.Equal(t, 46, claimed, "the auto-charge claimed the first 46 events")
	f.requireRollupsMatchEvents(t)

	cuts := []time.Time{mar1, mar15}
	for range 10 {
		cuts = append(cuts, at())
	}
	third := mar1.Add(50*time.Hour + 17*time.Minute)
	cuts = append(cuts, third, third.Add(21*time.Minute), mar1.Add(80*time.Hour), mar1.Add(83*time.Hour))
	slices.SortFunc(cuts, func(a, b time.Time) int { return a.Compare(b) })
	cuts = slices.CompactFunc(cuts, time.Time.Equal)
	billed := 0
	for i := 1; i < len(cuts); i++ {
		from, to := cuts[i-1], cuts[i]
		want := f.unclaimedUsage(t, p, from, to)
		r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(from), iso(to)).RESTBody())
		if want == "0" {
			require.NotEqual(t, http.StatusCreated, r.Status, "[%s, %s): %s", iso(from), iso(to), r.Body)
			continue
		}
		require.Equal(t, http.StatusCreated, r.Status, "[%s, %s): %s", iso(from), iso(to), r.Body)
		ls := lines(r.JSON())
		require.Len(t, ls, 1)
		require.Equal(t, want, ls[0]["usage"], "[%s, %s)", iso(from), iso(to))
		billed++
	}
	require.Greater(t, billed, 5)
	f.requireRollupsMatchEvents(t)
}

// Concurrent ingests into one hour of one payer wait on its rollup row
// and add to it one after the other: the hour's total is exact, and an
// invoice of exactly that hour (read from the rollup alone) bills it. An
// ingest costs the same statements whether it makes the hour's rollup or
// adds to it (the rollup is kept by the insert's own statement).
func TestConcurrentIngestsIntoOneHourKeepItsRollupExact(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 1)
	hour := mar1.Add(30 * time.Hour)
	const workers, each = 4, 10
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range each {
				r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, fmt.Sprintf("h%d-%d", w, i), p.customer).
					WithValue(strconv.Itoa(1+(w+i)%9)).At(iso(hour.Add(time.Duration(w*each+i)*time.Minute))).RESTBody())
				if r.Status != http.StatusCreated {
					t.Errorf("ingest: %d %s", r.Status, r.Body)
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	want := 0
	for w := range workers {
		for i := range each {
			want += 1 + (w+i)%9
		}
	}
	// Statements are compared one ingest after the other, not among the
	// racing ones: which of those also refreshes per-request state (a key's
	// last use) is the scheduler's. The first ingest of a new hour makes its
	// rollup, the second adds to it: the same statements.
	later := hour.Add(3 * time.Hour)
	ingest := func(ref string) int {
		r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, ref, p.customer).
			WithValue("1").At(iso(later)).RESTBody())
		require.Equal(t, http.StatusCreated, r.Status, r.Body)
		return r.Statements
	}
	makes := ingest("later-1")
	require.Equal(t, makes, ingest("later-2"), "an ingest adding to its hour's rollup costs what the one making it cost")
	var events int
	var total string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT events, trim_scale(sum_value)::text FROM usage_rollups WHERE payer_id = ? AND bucket = ?`,
		p.customer, hour).Scan(context.Background(), &events, &total))
	require.Equal(t, workers*each, events)
	require.Equal(t, strconv.Itoa(want), total)
	inv := p.bill(t, f, hour, hour.Add(time.Hour), nil)
	require.Equal(t, strconv.Itoa(want), lines(inv)[0]["usage"])
	f.requireUsageInvariants(t)
}

// unclaimedUsage is the plain sum of p's events in [from, to) that no
// auto-charge claimed, as decimal text.
func (f *fixture) unclaimedUsage(t *testing.T, p usagePayer, from, to time.Time) string {
	t.Helper()
	var sum string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT trim_scale(coalesce(sum(value), 0))::text FROM metering_events
		WHERE customer_id = ? AND "timestamp" >= ? AND "timestamp" < ? AND invoice_id IS NULL`, p.customer, from, to).
		Scan(context.Background(), &sum))
	return sum
}

// requireRollupsMatchEvents checks that usage_rollups holds, per payer,
// event name, meter and hour, exactly the aggregates of the events no
// auto-charge claimed (a row whose sums are all zero counts as absent).
func (f *fixture) requireRollupsMatchEvents(t *testing.T) {
	t.Helper()
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM (
		SELECT merchant_id, livemode, coalesce(customer_id, account_id) AS payer_id, event_name, meter_id,
		       usage_bucket("timestamp") AS bucket, count(*) AS events, sum(value) AS sum_value,
		       sum(value * (100 + coalesce(markup_percentage, 0))) AS sum_w100, sum(100 + coalesce(markup_percentage, 0)) AS sum_f100
		  FROM metering_events WHERE invoice_id IS NULL GROUP BY 1, 2, 3, 4, 5, 6) AS e
		FULL JOIN (SELECT * FROM usage_rollups WHERE events <> 0 OR sum_value <> 0 OR sum_w100 <> 0 OR sum_f100 <> 0) AS r
		USING (merchant_id, livemode, payer_id, event_name, meter_id, bucket)
		WHERE (e.events, e.sum_value, e.sum_w100, e.sum_f100) IS DISTINCT FROM (r.events, r.sum_value, r.sum_w100, r.sum_f100)`).
		Scan(context.Background(), &n))
	require.Zero(t, n, "usage_rollups equal the aggregates of the unclaimed events")
}
