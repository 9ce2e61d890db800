package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/testclocks"
)

// Advances bounded by a budget of work (API-DECISIONS §7), tried as the
// attacks that once ran for hours: a thousand years of a daily
// subscription, and a clock with ten thousand subscriptions. Each request
// answers within its budget (asserted on the statements and effects it
// ran, never on the wall clock) and the background continuation finishes
// the advance, slice by slice, in time order.

// testBudget is the effects a request or a slice applies in these tests.
const testBudget = 20

// slice runs one slice of the continuation of f's sandbox, synchronously,
// counting its statements: what one run of the River job does.
func (f *fixture) slice(t *testing.T) (testclocks.Slice, int64) {
	t.Helper()
	ctx, count := store.WithStatementCounter(context.Background())
	s, err := f.env.Services.Billing.TestClocks.ContinueSlice(ctx, store.Scope{MerchantID: f.env.Merchant.ID})
	require.NoError(t, err)
	return s, count.Load()
}

// advanceToTheEnd advances the clock to target and, when the answer is 202
// (its effects did not fit the request's budget), runs the continuation's
// slices until the clock is ready: what the request and the slices
// applied, in order.
func (f *fixture) advanceToTheEnd(t *testing.T, clock string, target time.Time) []*models.TestClockEffect {
	t.Helper()
	effects, _ := f.advanceToTheEndCounting(t, clock, target)
	return effects
}

// advanceToTheEndCounting is advanceToTheEnd, answering also the
// statements the advance's request ran.
func (f *fixture) advanceToTheEndCounting(t *testing.T, clock string, target time.Time) ([]*models.TestClockEffect, int) {
	t.Helper()
	r := f.sk.Post(clocksPath+"/"+clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	require.Contains(t, []int{http.StatusOK, http.StatusAccepted}, r.Status, string(r.Body))
	var answer models.TestClock
	require.NoError(t, json.Unmarshal(r.Body, &answer))
	effects := answer.Receipt.Effects
	for advancing := r.Status == http.StatusAccepted; advancing; {
		sl, _ := f.slice(t)
		require.Equal(t, clock, sl.Clock.String())
		effects = append(effects, sl.Effects...)
		advancing = sl.More
	}
	got := f.sk.Get(clocksPath + "/" + clock).JSON()
	require.Equal(t, "ready", got["status"])
	require.Equal(t, target.Unix(), num(got["advanced_to"]))
	return effects, r.Statements
}

// continuationJobs counts the waiting continuation jobs of f's sandbox.
func (f *fixture) continuationJobs(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM river_job WHERE kind = 'billing.advance_clocks'
		AND state = 'available' AND args->>'merchant_id' = ?`, f.env.Merchant.ID.String()).Scan(context.Background(), &n))
	return n
}

// statementsPerHandOff are what an advance handed to the background runs
// besides its effects (when they fit one write): the credential's
// look-up, the claim (the clock locked and marked advancing), the write's
// clock lock and events, and the last write (the clock locked, the
// sources asked: still due, the hand-off's advisory lock that orders it
// against a continuation ending); the continuation's job is inserted in
// that write on its connection by the job engine, which the counter does
// not see.
const statementsPerHandOff = 1 + 2 + 2 + 3

func TestAThousandYearAdvanceAnswersWithinItsBudget(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "a thousand years of test clock advance in budgeted slices")
	f := setup(t, testenv.WithAdvanceBudget(testBudget))
	s := newClockedSubscriber(t, f, jan31, "daily", "")
	target := jan31.AddDate(1000, 0, 0)

	r := f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	clock := r.JSON()
	require.Equal(t, "advancing", clock["status"])
	require.Equal(t, target.Unix(), num(clock["frozen_time"]), "where the clock is going")
	require.Equal(t, jan31.AddDate(0, 0, testBudget).Unix(), num(clock["advanced_to"]), "how far it got: one renewal a day")
	require.Len(t, clock["receipt"].(map[string]any)["effects"], testBudget)
	require.Equal(t, int64(statementsPerHandOff+testBudget*statementsPerRenewal), int64(r.Statements), "a bounded request")
	require.Equal(t, 1, f.continuationJobs(t), "the rest is the background's")

	// GET shows the progress; a second advance is refused while it runs.
	got := f.sk.Get(clocksPath + "/" + s.clock).JSON()
	require.Equal(t, "advancing", got["status"])
	require.Equal(t, clock["advanced_to"], got["advanced_to"])
	requireError(t, f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": target.Unix()}),
		http.StatusConflict, "clock_advancing", "")

	// Each slice of the continuation applies the budget, in time order.
	progress := num(clock["advanced_to"])
	for range 3 {
		sl, statements := f.slice(t)
		require.Len(t, sl.Effects, testBudget)
		require.True(t, sl.More)
		require.LessOrEqual(t, statements, int64(testBudget*(statementsPerRenewal+1)+8), "a bounded slice")
		for _, e := range sl.Effects {
			require.Equal(t, models.EffectRenewal, e.Kind)
			require.Greater(t, e.At.Unix(), progress, "in time order")
			progress = e.At.Unix()
		}
	}
	require.Equal(t, progress, num(f.sk.Get(clocksPath + "/" + s.clock).JSON()["advanced_to"]))

	// Once nothing more is due (the subscription canceled), the next
	// slice sets the clock at its target, a thousand years on.
	r = f.sk.Post("/v1/subscriptions/"+s.sub+"/cancel", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	sl, _ := f.slice(t)
	require.Empty(t, sl.Effects)
	require.False(t, sl.More)
	got = f.sk.Get(clocksPath + "/" + s.clock).JSON()
	require.Equal(t, "ready", got["status"])
	require.Equal(t, target.Unix(), num(got["frozen_time"]))
	require.Equal(t, target.Unix(), num(got["advanced_to"]))

	// Every day up to the cancel was billed once, each period following
	// the last.
	invoices := subscriptionInvoices(t, f.sk, s.sub)
	require.Len(t, invoices, 1+4*testBudget)
	var end int64
	for i := len(invoices) - 1; i >= 0; i-- { // oldest first
		line := invoices[i]["line_items"].([]any)[0].(map[string]any)
		if end != 0 {
			require.Equal(t, end, num(line["period_start"]), "no gap, no overlap")
		}
		end = num(line["period_end"])
		require.Equal(t, "paid", invoices[i]["status"])
	}
	f.ledgerBalances(t)
}

// seedPausedSubscriptions makes n paused subscriptions of the customer on
// its clock to a daily product, the i-th anchored i times apart after
// jan31, in one statement: creating them through the API would take n
// requests. A paused subscription's renewal rolls its period without
// billing it (the cheapest renewal there is), so the test's ten thousand
// renewals cost what the continuation itself costs, not ten thousand
// charges.
func (f *fixture) seedPausedSubscriptions(t *testing.T, s clockedSubscriber, n int, product string, apart time.Duration) {
	t.Helper()
	f.exec(t, `INSERT INTO subscriptions (merchant_id, id, livemode, status, customer_id, test_clock_id, product_id,
		currency, proration_behavior, anchor, period_number, current_period_start, current_period_end, paused_at,
		created, updated)
		SELECT ?, gen_random_uuid(), false, 'paused', ?, ?, ?, 'usd', 'create_prorations',
		       ?::timestamptz + make_interval(secs => i * ?), 0, ?::timestamptz + make_interval(secs => i * ?),
		       ?::timestamptz + make_interval(secs => i * ?), ?::timestamptz, ?::timestamptz, ?::timestamptz
		FROM generate_series(1, ?) AS i`,
		f.env.Merchant.ID, s.customer, s.clock, product, jan31, apart.Seconds(), jan31, apart.Seconds(),
		jan31.AddDate(0, 0, 1), apart.Seconds(), jan31, jan31, jan31, n)
}

func TestATenThousandSubscriptionClockAnswersWithinItsBudget(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithAdvanceBudget(500))
	s := newClockedSubscriber(t, f, jan31, "monthly", "")
	r := f.sk.Post("/v1/subscriptions/"+s.sub+"/cancel", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	daily := id(f.sk.CreateProduct(testenv.RecurringProduct(2000, "daily")))
	const subscriptions = 10_000
	f.seedPausedSubscriptions(t, s, subscriptions, daily, time.Second)

	// A day and a half: each subscription's period rolls once.
	target := jan31.AddDate(0, 0, 1).Add(12 * time.Hour)
	r = f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	require.Len(t, r.JSON()["receipt"].(map[string]any)["effects"], 500, "the budget, not ten thousand")
	require.Less(t, r.Statements, 500*statementsPerRenewal+statementsPerHandOff)

	slices := 0
	for {
		sl, _ := f.slice(t)
		slices++
		require.LessOrEqual(t, len(sl.Effects), 500)
		if !sl.More {
			break
		}
	}
	require.Equal(t, subscriptions/500, slices, "the rest in slices of the budget")
	got := f.sk.Get(clocksPath + "/" + s.clock).JSON()
	require.Equal(t, "ready", got["status"])
	require.Equal(t, target.Unix(), num(got["advanced_to"]))
	var renewed, announced int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM subscriptions WHERE period_number = 1
		AND current_period_start = anchor + interval '1 day'`).Scan(context.Background(), &renewed))
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM events WHERE type = 'subscription.renewal.completed'`).
		Scan(context.Background(), &announced))
	require.Equal(t, subscriptions, renewed, "each renewed once, to its next period")
	require.Equal(t, subscriptions, announced)
}

// Deleting a clock while its advance goes on in the background stops it:
// the subscription is canceled with the clock, the continuation finds no
// clock to step, and nothing more is billed.
func TestDeletingAnAdvancingClockStopsItsAdvance(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithAdvanceBudget(testBudget))
	s := newClockedSubscriber(t, f, jan31, "daily", "")
	r := f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": jan31.AddDate(1000, 0, 0).Unix()})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	billed := len(subscriptionInvoices(t, f.sk, s.sub))

	r = f.sk.Delete(clocksPath + "/" + s.clock)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	sl, _ := f.slice(t)
	require.Empty(t, sl.Effects, "no clock left to step")
	require.False(t, sl.More)
	require.Len(t, subscriptionInvoices(t, f.sk, s.sub), billed, "nothing billed after the deletion")
	require.Equal(t, "canceled", f.sk.Get("/v1/subscriptions/" + s.sub).JSON()["status"])
	requireError(t, f.sk.Get(clocksPath+"/"+s.clock), http.StatusNotFound, "resource_missing", "id")
	f.ledgerBalances(t)
}

// An advance whose continuation was lost (the request cut off after its
// claim, or the job with the process running it) is resumed by the wall
// clock's run once nothing has stepped the clock for a minute: the job is
// enqueued again, once, and finishes the advance.
func TestAStalledAdvanceIsResumed(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "a stalled test clock advance resumed by the job engine")
	f := setup(t, testenv.WithAdvanceBudget(testBudget))
	s := newClockedSubscriber(t, f, jan31, "daily", "")
	target := jan31.AddDate(0, 0, 2*testBudget)
	r := f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	f.exec(t, `DELETE FROM river_job WHERE kind = 'billing.advance_clocks' AND args->>'merchant_id' = ?`,
		f.env.Merchant.ID.String())
	runDue := func() {
		_, err := f.env.Services.Billing.RunAllDue(context.Background())
		require.NoError(t, err)
	}

	runDue()
	require.Equal(t, 0, f.continuationJobs(t), "stepped less than a minute ago: not stalled")
	f.env.Clock.Advance(2 * time.Minute)
	runDue()
	require.Equal(t, 1, f.continuationJobs(t), "stalled: resumed")
	runDue()
	require.Equal(t, 1, f.continuationJobs(t), "one job per merchant and mode")

	for more := true; more; {
		sl, _ := f.slice(t)
		more = sl.More
	}
	got := f.sk.Get(clocksPath + "/" + s.clock).JSON()
	require.Equal(t, "ready", got["status"])
	require.Equal(t, target.Unix(), num(got["advanced_to"]))
	require.Len(t, subscriptionInvoices(t, f.sk, s.sub), 1+2*testBudget, "every day billed once")
}
