package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Ingests racing a usage invoice of the payer: each event is billed exactly
// once, by that invoice when it committed before the invoice read its
// window, else by the next invoice; an event that arrives in the window
// once it is billed is refused and stored nowhere. The invoice writes no
// event row: its window (usage_invoice_windows) bills them.
func TestIngestsRacingAUsageInvoiceBillEachEventOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 1)
	p.report(t, f, apiCalls, "seed", "1", day(2))
	mid := day(8)

	const workers, each = 4, 12
	type answer struct {
		at     time.Time
		value  int
		status int
		body   string
		id     string
	}
	answers := make([][]answer, workers)
	var inv *testenv.Response
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range each {
				at := day(1 + (w*each+i)%14).Add(time.Duration(w*3600+i*60) * time.Second)
				value := 1 + (w+i)%9
				r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, fmt.Sprintf("w%d-%d", w, i), p.customer).
					WithValue(strconv.Itoa(value)).At(iso(at)).RESTBody())
				a := answer{at: at, value: value, status: r.Status, body: string(r.Body)}
				if r.Status == http.StatusCreated {
					a.id = id(r.JSON())
				}
				answers[w] = append(answers[w], a)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		inv = f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(day(1)), iso(mid)).RESTBody())
	}()
	close(start)
	wg.Wait()
	require.Equal(t, http.StatusCreated, inv.Status, string(inv.Body))
	first := id(inv.JSON())

	accepted, value := 1, 1 // the seed, in the first window
	for _, list := range answers {
		for _, a := range list {
			if a.status == http.StatusCreated {
				accepted, value = accepted+1, value+a.value
				continue
			}
			// Refused: in the window the invoice billed, after it.
			require.Equal(t, http.StatusUnprocessableEntity, a.status, a.body)
			require.Contains(t, a.body, "usage_period_invoiced")
			require.True(t, a.at.Before(mid), "an event after the window is never refused: %v", a.at)
		}
	}
	next := p.bill(t, f, mid, day(15), nil)
	require.EqualValues(t, value, inv.JSON()["total"].(float64)+next["total"].(float64),
		"the two invoices bill every stored event's value once (one cent a unit)")

	// Every stored event is billed once: by the first invoice exactly
	// when its timestamp is in the first window, by the next otherwise,
	// and each invoice's line bills exactly the values of its events.
	ctx := context.Background()
	var stored, wrong int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*), count(*) FILTER (WHERE billed_by IS DISTINCT FROM
		CASE WHEN "timestamp" < ? THEN ?::uuid ELSE ?::uuid END) FROM metering_events_billed WHERE customer_id = ?::uuid`,
		mid, first, id(next), p.customer).Scan(ctx, &stored, &wrong))
	require.Equal(t, accepted, stored, "every event answered 201 is stored, no refused one is")
	require.Zero(t, wrong, "each event billed by the invoice of its window")
	var billedRows int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM metering_events WHERE customer_id = ?::uuid AND invoice_id IS NOT NULL`,
		p.customer).Scan(ctx, &billedRows))
	require.Zero(t, billedRows, "a usage invoice writes no event row")
	for _, list := range answers {
		for _, a := range list {
			if a.status != http.StatusCreated {
				continue
			}
			want := id(next)
			if a.at.Before(mid) {
				want = first
			}
			ev := f.sk.Get(meteringEventsPath + "/" + a.id).JSON()
			require.Equal(t, want, ev["invoice"], "the event read names the invoice of its window: %v", ev)
		}
	}
	f.requireUsageInvariants(t)
}

// After a usage invoice, what reads and corrections say of its events
// comes from its window: the event reads name the invoice, the report
// splits billed and unbilled usage, a billed event cannot change, an event
// cannot move into the window, and the next invoice bills what is left.
func TestUsageInvoiceWindowIsWhatBillsItsEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	in := p.report(t, f, apiCalls, "in", "2", day(2))
	out := p.report(t, f, apiCalls, "out", "3", day(10))
	inv := p.bill(t, f, day(1), day(5), nil)
	require.EqualValues(t, 20, inv["total"])

	require.Equal(t, id(inv), f.sk.Get(meteringEventsPath + "/" + id(in)).JSON()["invoice"])
	require.Nil(t, f.sk.Get(meteringEventsPath + "/" + id(out)).JSON()["invoice"])
	again := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, "in", p.customer).WithValue("2").At(iso(day(2))).RESTBody())
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
	require.Equal(t, id(inv), again.JSON()["invoice"], "a repeated reference answers the original, billed")

	requireError(t, f.sk.Patch(meteringEventsPath+"/"+id(in), map[string]any{"value": 9}),
		http.StatusUnprocessableEntity, "metering_event_invoiced", "")
	requireError(t, f.sk.Patch(meteringEventsPath+"/"+id(out), map[string]any{"timestamp": iso(day(3))}),
		http.StatusUnprocessableEntity, "usage_period_invoiced", "timestamp")
	requireError(t, f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, "late", p.customer).At(iso(day(4))).RESTBody()),
		http.StatusUnprocessableEntity, "usage_period_invoiced", "timestamp")
	r := f.sk.Patch(meteringEventsPath+"/"+id(out), map[string]any{"value": 4})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["invoice"])

	rep := f.sk.Get("/v1/billing/report/customer?customer=" + p.customer + "&from=" + iso(day(1)) + "&to=" + iso(day(15))).JSON()
	u := rep["aggregated_usage"].([]any)[0].(map[string]any)
	require.Equal(t, "2", u["billed_usage"])
	require.Equal(t, "4", u["unbilled_usage"])
	require.EqualValues(t, 1, u["billed_event_count"])
	require.EqualValues(t, 1, u["unbilled_event_count"])

	next := p.bill(t, f, day(5), day(15), nil)
	require.EqualValues(t, 40, next["total"])
	require.Equal(t, id(next), f.sk.Get(meteringEventsPath + "/" + id(out)).JSON()["invoice"])
	f.requireUsageInvariants(t)
}
