package rest_test

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func day(n int) time.Time { return mar1.AddDate(0, 0, n-1) }

func TestUsageInvoiceRacingOverlappingWindowsBillOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	for i := 1; i <= 10; i++ {
		p.report(t, f, apiCalls, "e"+strconv.Itoa(i), "1", day(i))
	}
	windows := [][2]int{{1, 15}, {1, 15}, {2, 12}, {5, 6}, {1, 3}, {10, 14}, {3, 9}, {1, 15}}
	statuses := make([]int, len(windows))
	var wg sync.WaitGroup
	for i, w := range windows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(day(w[0])), iso(day(w[1]))).RESTBody())
			statuses[i] = r.Status
			if r.Status != http.StatusCreated {
				require.Equal(t, "usage_period_invoiced", r.JSON()["code"], string(r.Body))
			}
		}()
	}
	wg.Wait()
	var billed [][2]int
	for i, s := range statuses {
		if s == http.StatusCreated {
			billed = append(billed, windows[i])
		}
	}
	require.NotEmpty(t, billed)
	for i := range billed {
		for j := range billed {
			if i != j {
				require.False(t, billed[i][0] < billed[j][1] && billed[j][0] < billed[i][1], "overlapping windows billed: %v", billed)
			}
		}
	}
	var twice int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM (SELECT li.invoice_id FROM invoice_line_items li
		WHERE li.kind = 'usage' GROUP BY li.invoice_id HAVING count(*) > 1) AS x`).Scan(context.Background(), &twice))
	require.Zero(t, twice)
	f.requireUsageInvariants(t)
}

func TestBillingCreditsRacingInvoicesNeverGoBelowZero(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	credit := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 10, iso(mar15.AddDate(0, 1, 0))))
	for i := 1; i <= 8; i++ {
		p.report(t, f, apiCalls, "e"+strconv.Itoa(i), "3", day(i))
	}
	var wg sync.WaitGroup
	totals := make([]float64, 8)
	for i := 1; i <= 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(day(i)), iso(day(i+1))).RESTBody())
			require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
			totals[i-1] = r.JSON()["total"].(float64)
		}()
	}
	wg.Wait()
	var charged float64
	for _, tot := range totals {
		charged += tot
	}
	require.Equal(t, float64((24-10)*100), charged, "10 of the 24 units covered, whatever the order")
	c := f.sk.Get(creditsPath + "/" + id(credit)).JSON()
	require.Equal(t, "10", c["used_credits"])
	require.Equal(t, "exhausted", c["status"])
	require.Equal(t, 1, f.eventCount(t, "billing_credit.exhausted", id(credit)))
	f.requireUsageInvariants(t)
}

// TestUsageBillingAcrossThreeClockPeriods bills three months of usage on
// a test clock; the credits apply to the first two and expire before the
// third is invoiced.
func TestUsageBillingAcrossThreeClockPeriods(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	apr1, may1, jun1 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	credit := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 12, iso(may1.AddDate(0, 0, 9))))

	p.report(t, f, apiCalls, "mar", "8", mar15)
	f.sk.AdvanceTestClock(p.clock, apr1.Add(time.Hour))
	march := p.bill(t, f, mar1, apr1, nil)
	require.Equal(t, float64(0), march["total"], "8 units, all covered")
	require.Equal(t, "paid", march["status"])

	f.sk.AdvanceTestClock(p.clock, apr1.AddDate(0, 0, 5))
	p.report(t, f, apiCalls, "apr", "10", apr1.AddDate(0, 0, 5))
	f.sk.AdvanceTestClock(p.clock, may1)
	april := p.bill(t, f, apr1, may1, nil)
	require.Equal(t, "4", lines(april)[0]["credits_applied"], "what the pool still held, applied before it expired")
	require.Equal(t, float64(600), april["total"])
	require.Equal(t, "exhausted", f.sk.Get(creditsPath + "/" + id(credit)).JSON()["status"])

	late := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 50, iso(may1.AddDate(0, 0, 10))))
	f.sk.AdvanceTestClock(p.clock, may1.AddDate(0, 0, 15))
	p.report(t, f, apiCalls, "may", "5", may1.AddDate(0, 0, 15))
	f.sk.AdvanceTestClock(p.clock, jun1)
	require.Equal(t, "expired", f.sk.Get(creditsPath + "/" + id(late)).JSON()["status"])
	may := p.bill(t, f, may1, jun1, nil)
	require.Equal(t, "0", lines(may)[0]["credits_applied"], "an expired pool is not applied")
	require.Equal(t, float64(500), may["total"])
	require.Equal(t, jun1.Unix(), num(may["issued_at"]), "issued at the clock's time")
	f.requireUsageInvariants(t)
}

// TestUsageBillingInvariant runs a seeded mix of events, retried
// duplicates, credits, usage invoices and threshold charges from several
// clients at once; whatever the interleaving, every (event name,
// reference) has one row, no pool leaves its bounds, usage lines bill
// exactly the events billed, every priced event of a billed window is
// billed, and the books balance.
func TestUsageBillingInvariant(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := newUsagePayer(t, f, 100)
	b := newUsageCustomer(t, f, 100)
	f.sk.SetUsageThreshold(a.customer, 2500)
	payers := []usagePayer{a, b}
	names := []string{apiCalls, "tokens"}
	f.sk.PriceMeter("tokens", a.product, "")

	const workers, ops = 6, 30
	var wg sync.WaitGroup
	for w := range workers {
		rng := rand.New(rand.NewSource(int64(w) + 42))
		plan := make([]func(), 0, ops)
		for i := range ops {
			p := payers[rng.Intn(len(payers))]
			switch k := rng.Intn(10); {
			case k < 6: // an event, sometimes a retry of an earlier reference
				ref := fmt.Sprintf("w%d-%d", w, i)
				if i > 0 && rng.Intn(3) == 0 {
					ref = fmt.Sprintf("w%d-%d", w, rng.Intn(i))
				}
				body := testenv.MeteringEvent(names[rng.Intn(2)], ref, p.customer).WithValue(strconv.Itoa(1 + rng.Intn(9))).
					At(iso(day(1 + rng.Intn(14)).Add(time.Duration(rng.Intn(86400)) * time.Second))).RESTBody()
				plan = append(plan, func() {
					r := f.sk.Post(meteringEventsPath, body)
					if r.Status != http.StatusCreated {
						require.Equal(t, "usage_period_invoiced", r.JSON()["code"], string(r.Body))
					}
				})
			case k < 7:
				spec := testenv.BillingCredit(p.product, p.customer, int64(1+rng.Intn(20)), iso(mar15.AddDate(0, 0, 1+rng.Intn(30))))
				plan = append(plan, func() { f.sk.CreateBillingCredit(spec) })
			default:
				from := 1 + rng.Intn(13)
				to := min(from+1+rng.Intn(3), 15) // the window ends by the payers' time
				body := testenv.UsageInvoice(p.customer, iso(day(from)), iso(day(to))).RESTBody()
				plan = append(plan, func() {
					r := f.sk.Post(usageInvoicePath, body)
					if r.Status != http.StatusCreated {
						code := r.JSON()["code"]
						require.Contains(t, []any{"usage_period_invoiced", "no_billable_usage"}, code, string(r.Body))
					}
				})
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, step := range plan {
				step()
			}
		}()
	}
	wg.Wait()
	f.requireUsageInvariants(t)
}

// requireUsageInvariants checks what usage billing promises of the
// database whatever happened: one row per (event name, reference), pools
// within their bounds and equal to what invoices took from them, usage
// lines (sum meters) billing exactly the usage of the events they
// claimed, no priced event of a billed window left unbilled, the usage
// rollups equal to the events they sum, and the ledger balanced.
func (f *fixture) requireUsageInvariants(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	count := func(query string) int {
		var n int
		require.NoError(t, f.env.DB.Bun.NewRaw(query).Scan(ctx, &n), query)
		return n
	}
	require.Zero(t, count(`SELECT count(*) FROM (SELECT 1 FROM metering_events GROUP BY merchant_id, livemode, event_name, reference
		HAVING count(*) > 1) AS x`), "one row per (event name, reference)")
	require.Zero(t, count(`SELECT count(*) FROM billing_credits WHERE used_credits < 0 OR used_credits > billing_credits`))
	require.Zero(t, count(`SELECT count(*) FROM billing_credits bc WHERE bc.used_credits <> coalesce((SELECT sum(u.amount)
		FROM billing_credit_uses u WHERE u.merchant_id = bc.merchant_id AND u.credit_id = bc.id), 0)`), "pools equal their uses")
	require.Zero(t, count(`SELECT count(*) FROM billing_credits WHERE (used_credits = billing_credits) <> (exhausted_at IS NOT NULL)`))
	require.Zero(t, count(`SELECT count(*) FROM (
		SELECT li.invoice_id, li.event_name, li.usage AS billed,
		       (SELECT sum(me.value) FROM metering_events_billed me WHERE me.merchant_id = li.merchant_id
		          AND me.billed_by = li.invoice_id AND me.event_name = li.event_name) AS events
		FROM invoice_line_items li WHERE li.kind = 'usage') AS x WHERE billed IS DISTINCT FROM events`),
		"each usage line bills the usage of the events it claimed")
	require.Zero(t, count(`SELECT count(*) FROM metering_events_billed me WHERE me.billed_by IS NOT NULL AND NOT EXISTS (
		SELECT 1 FROM invoice_line_items li WHERE li.merchant_id = me.merchant_id AND li.invoice_id = me.billed_by
		AND li.event_name = me.event_name)`), "every billed event is on a line")
	require.Zero(t, count(`SELECT count(*) FROM metering_events_billed me JOIN usage_invoice_windows w
		ON w.merchant_id = me.merchant_id AND w.livemode = me.livemode AND w.event_name = me.event_name
		AND (w.customer_id = me.customer_id OR w.account_id = me.account_id)
		AND me."timestamp" >= w.period_start AND me."timestamp" < w.period_end
		JOIN billing_meters bm ON bm.merchant_id = me.merchant_id AND bm.id = me.meter_id AND bm.product_id IS NOT NULL
		WHERE me.billed_by IS DISTINCT FROM w.invoice_id AND me.invoice_id IS NULL`),
		"every priced event of a billed window is billed, by that window's invoice unless an auto-charge billed it first")
	var lines, events string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT trim_scale(coalesce(sum(usage), 0))::text FROM invoice_line_items WHERE kind = 'usage'`).
		Scan(ctx, &lines))
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT trim_scale(coalesce(sum(value), 0))::text FROM metering_events_billed WHERE billed_by IS NOT NULL`).
		Scan(ctx, &events))
	require.Equal(t, events, lines, "Σ usage on usage lines = Σ billed events")
	require.Zero(t, count(`SELECT count(*) FROM invoices WHERE total <> (SELECT coalesce(sum(li.quantity::bigint * li.unit_amount_cents), 0)
		FROM invoice_line_items li WHERE li.merchant_id = invoices.merchant_id AND li.invoice_id = invoices.id)`))
	f.requireRollupsMatchEvents(t)
	fundingBooks(t, f)
	require.Zero(t, count(`SELECT count(*) FROM (SELECT journal_id FROM ledger_entries
		GROUP BY merchant_id, journal_id, currency HAVING sum(amount) <> 0) AS j`), "every journal balances")
}
