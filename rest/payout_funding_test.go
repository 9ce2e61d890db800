package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/funding"
)

func TestFundingScheduleCreateAndUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	now := f.env.Clock.Now().Unix()
	r := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 5000, "cadence": "weekly"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	s := r.JSON()
	require.Equal(t, scheduleKeys, keys(s))
	require.Equal(t, "payout_funding_schedule", s["object"])
	require.Equal(t, int64(5000), num(s["amount"]))
	require.Equal(t, "USD", s["currency"])
	require.Equal(t, true, s["enabled"], "enabled by default")
	require.InDelta(t, now, num(s["next_run"]), 1, "next_run defaults to now")
	require.Nil(t, s["last_run"])

	errs := requireValidation(t, f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 0, "next_run": -1}),
		"amount", "cadence", "next_run")
	requireProblem(t, errs, "amount", "must be greater than 0")
	requireValidation(t, f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 1, "cadence": "hourly"}), "cadence")
	requireError(t, f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": "1", "cadence": "daily"}),
		http.StatusBadRequest, "parameter_invalid", "amount")

	later := now + 86400*3
	r = f.sk.Patch("/v1/payout_funding/schedules/"+id(s), map[string]any{"enabled": false, "next_run": later, "amount": 7000})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	require.Equal(t, false, u["enabled"])
	require.Equal(t, int64(later), num(u["next_run"]))
	require.Equal(t, int64(7000), num(u["amount"]))
	ev := listEvents(t, f.sk, "payout_funding_schedule.updated")
	require.Len(t, ev, 1)
	require.Equal(t, sorted("enabled", "next_run", "amount"), keys(ev[0].previous()))
	// An update that changes nothing announces nothing.
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/payout_funding/schedules/"+id(s), map[string]any{"enabled": false}).Status)
	require.Len(t, listEvents(t, f.sk, "payout_funding_schedule.updated"), 1)
	requireValidation(t, f.sk.Patch("/v1/payout_funding/schedules/"+id(s), map[string]any{"amount": -1, "cadence": "yearly"}),
		"amount", "cadence")
	requireError(t, f.sk.Patch("/v1/payout_funding/schedules/"+id(f.sk.CreateAccount(testenv.Individual())), map[string]any{"enabled": true}),
		http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, u, f.sk.Get("/v1/payout_funding/schedules/"+id(s)).JSON())

	s2 := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 1, "cadence": "daily", "enabled": false}).JSON()
	require.Equal(t, false, s2["enabled"])
	require.Equal(t, []string{id(s2), id(s)}, ids(listOf(t, f.sk, "/v1/payout_funding/schedules")))
	require.Len(t, listEvents(t, f.sk, "payout_funding_schedule.created"), 2)
}

func TestDueSchedulesFundOnceAndAdvance(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	sweep := func() int {
		n, err := f.env.Services.Funding.Sweep(ctx)
		require.NoError(t, err)
		return n
	}
	start := f.env.Clock.Now()
	daily := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 1000, "cadence": "daily"}).JSON()
	monthly := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 50, "cadence": "monthly",
		"next_run": start.Add(48 * time.Hour).Unix()}).JSON()
	off := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 7, "cadence": "daily", "enabled": false}).JSON()

	require.Equal(t, 1, sweep(), "the daily schedule is due at once")
	require.Equal(t, 0, sweep(), "and funds once")
	d := f.sk.Get("/v1/payout_funding/schedules/" + id(daily)).JSON()
	requireInt(t, d["last_run"], "last_run")
	require.Equal(t, start.Add(24*time.Hour).Unix(), num(d["next_run"]), "advanced by its cadence")
	entries := listOf(t, f.sk, "/v1/payout_funding/entries?schedule="+id(daily))
	require.Len(t, entries, 1)
	require.Equal(t, entryKeys, keys(entries[0]))
	require.Equal(t, "schedule", entries[0]["source"])
	require.Equal(t, id(daily), entries[0]["schedule"])
	require.Equal(t, "payout_funding_entry", entries[0]["object"])

	// Three days later (runs missed while nothing swept are not made up).
	f.env.Clock.Advance(72 * time.Hour)
	require.Equal(t, 2, sweep(), "the daily and the monthly; the disabled one is skipped")
	d = f.sk.Get("/v1/payout_funding/schedules/" + id(daily)).JSON()
	require.Equal(t, start.Add(96*time.Hour).Unix(), num(d["next_run"]))
	m := f.sk.Get("/v1/payout_funding/schedules/" + id(monthly)).JSON()
	require.Equal(t, start.Add(48*time.Hour).AddDate(0, 1, 0).Unix(), num(m["next_run"]))
	require.Equal(t, int64(-2050), fundingBooks(t, f)["instant_payout"])
	require.Empty(t, listOf(t, f.sk, "/v1/payout_funding/entries?schedule="+id(off)))

	// Re-enabled, the disabled one is due again and funds once.
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/payout_funding/schedules/"+id(off), map[string]any{"enabled": true}).Status)
	require.Equal(t, 1, sweep())
	require.Equal(t, 0, sweep())
	require.Len(t, listOf(t, f.sk, "/v1/payout_funding/entries?schedule="+id(off)), 1)
	require.Equal(t, int64(-2057), fundingBooks(t, f)["instant_payout"])
	require.Len(t, listEvents(t, f.sk, "payout_funding_entry.created"), 4)
	require.Len(t, listOf(t, f.sk, "/v1/payout_funding/entries?source=schedule"), 4)
	requireValidation(t, f.sk.Get("/v1/payout_funding/entries?source=bank"), "source")
}

// The sweep runs as a River job: the engine's periodic sweep funds a due
// schedule at the injected clock's time. Each check waits for a sweep job
// to have run, never for a stretch of wall-clock time.
func TestTheSweepJobFundsDueSchedules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 1200, "cadence": "daily",
		"next_run": f.env.Clock.Now().Add(time.Hour).Unix()}).JSON()
	f.env.StartJobs()
	f.env.RunJob(funding.SweepArgs{})
	require.Empty(t, listOf(t, f.sk, "/v1/payout_funding/entries"), "not due yet on the test clock")
	f.env.Clock.Advance(2 * time.Hour)
	// The engine's own periodic sweep funds it: nothing is enqueued by hand.
	f.env.AwaitJobs(func() bool { return len(listOf(t, f.sk, "/v1/payout_funding/entries")) > 0 })
	f.env.RunJob(funding.SweepArgs{}) // another sweep, begun after the funding, passes
	require.Len(t, listOf(t, f.sk, "/v1/payout_funding/entries"), 1)
	require.NotNil(t, f.sk.Get("/v1/payout_funding/schedules/" + id(s)).JSON()["last_run"])
}

func TestTopUpsAndTheirBodyIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 2500, "idempotency_key": "topup-1"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	e := r.JSON()
	require.Equal(t, entryKeys, keys(e))
	require.Equal(t, "manual_push", e["source"])
	require.Nil(t, e["schedule"])
	require.Equal(t, int64(2500), num(e["amount"]))
	// The same key again, even with another amount: the original entry, nothing funded.
	r = f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 9999, "idempotency_key": "topup-1"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, e, r.JSON())
	require.Equal(t, int64(-2500), fundingBooks(t, f)["instant_payout"])
	// Without a key, every top-up funds.
	f.sk.TopUp(100)
	f.sk.TopUp(100)
	require.Equal(t, int64(-2700), fundingBooks(t, f)["instant_payout"])
	require.Len(t, listEvents(t, f.sk, "payout_funding_entry.created"), 3)
	require.Equal(t, e, f.sk.Get("/v1/payout_funding/entries/"+id(e)).JSON())
	require.Len(t, listOf(t, f.sk, "/v1/payout_funding/entries?source=manual_push"), 3)

	errs := requireValidation(t, f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 0, "idempotency_key": ""}),
		"amount", "idempotency_key")
	requireProblem(t, errs, "amount", "must be greater than 0")
	requireValidation(t, f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"idempotency_key": string(make([]byte, 256))}),
		"amount", "idempotency_key")
	requireError(t, f.sk.Get("/v1/payout_funding/entries/nope"), http.StatusNotFound, "resource_missing", "id")
}

func TestMerchantBalanceIsReadFromTheLedger(t *testing.T) {
	t.Parallel()
	f := setup(t)
	b := f.sk.Get("/v1/merchant_balance").JSON()
	require.Equal(t, sorted("object", "status", "merchant_id", "currency", "dots_balance", "available_for_payout",
		"reserved_amount", "pending_payouts", "last_updated_at", "source", "livemode"), keys(b))
	require.Equal(t, "AVAILABLE", b["status"])
	require.Equal(t, f.env.Merchant.ID.String(), b["merchant_id"])
	require.Equal(t, 0.0, b["dots_balance"])
	require.Nil(t, b["last_updated_at"])

	f.sk.TopUp(123456)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), testenv.Visa)
	f.sk.CreatePayout(testenv.Payout(id(card), 1001))
	r := f.sk.Get("/v1/merchant_balance")
	require.Contains(t, string(r.Body), `"dots_balance":1224.55,"available_for_payout":1224.55,"reserved_amount":0.00,"pending_payouts":0.00`)
	b = r.JSON()
	require.Equal(t, "USD", b["currency"])
	requireISO(t, b["last_updated_at"], "last_updated_at")
	require.Equal(t, "ledger", b["source"])
	// Production sees its own (empty) balance.
	require.Equal(t, 0.0, f.live.Get("/v1/merchant_balance").JSON()["dots_balance"])
}
