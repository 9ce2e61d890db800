package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// N payouts race on a balance that covers k of them: exactly k are sent,
// the others are refused with balance_insufficient, and the balance ends
// at zero, never below.
func TestConcurrentPayoutsNeverOverdrawTheBalance(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	const n, k, amount = 12, 5, 1000
	f.sk.TopUp(k * amount)
	statuses := make([]int, n)
	codes := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post("/v1/payouts", cardPayout(card, amount))
			statuses[i] = r.Status
			if r.Status != http.StatusCreated {
				codes[i], _ = r.JSON()["code"].(string)
			}
		}()
	}
	wg.Wait()
	sent, refused := 0, 0
	for i := range n {
		switch {
		case statuses[i] == http.StatusCreated:
			sent++
		case statuses[i] == http.StatusUnprocessableEntity && codes[i] == "balance_insufficient":
			refused++
		default:
			t.Fatalf("payout %d: %d %s", i, statuses[i], codes[i])
		}
	}
	require.Equal(t, k, sent)
	require.Equal(t, n-k, refused)
	require.Zero(t, fundingBooks(t, f)["instant_payout"])
	require.Len(t, listOf(t, f.sk, "/v1/payouts?per_page=100"), k)
}

// The database refuses an overdrawn instant-payout balance by itself,
// whatever the code above it checks.
func TestTheDatabaseRefusesAnOverdrawnBalance(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.TopUp(100)
	_, err := f.env.DB.Bun.ExecContext(context.Background(),
		"UPDATE ledger_accounts SET balance = 1 WHERE party = 'instant_payout'")
	require.ErrorContains(t, err, "ledger_instant_payout_not_overdrawn")
}

// Top-ups racing with one body idempotency_key fund once: one answer is the
// 201 that created the entry, every other the 200 of that same entry.
func TestConcurrentTopUpsWithOneKeyFundOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const n = 10
	statuses := make([]int, n)
	entries := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post("/v1/payout_funding/top_ups", map[string]any{"amount": 4200, "idempotency_key": "race"})
			statuses[i] = r.Status
			if r.Status < 300 {
				entries[i] = id(r.JSON())
			}
		}()
	}
	wg.Wait()
	created := 0
	for i := range n {
		require.Contains(t, []int{http.StatusCreated, http.StatusOK}, statuses[i])
		require.Equal(t, entries[0], entries[i])
		if statuses[i] == http.StatusCreated {
			created++
		}
	}
	require.Equal(t, 1, created)
	require.Equal(t, int64(-4200), fundingBooks(t, f)["instant_payout"])
	require.Len(t, listOf(t, f.sk, "/v1/payout_funding/entries"), 1)
}

// Many runs of one due schedule at once fund it once.
func TestConcurrentRunsOfOneScheduleFundOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	uid := f.sk.CreateFundingSchedule(testenv.FundingSchedule(300, "daily")).ID
	var wg sync.WaitGroup
	ran := make([]bool, 8)
	for i := range ran {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			ran[i], err = f.env.Services.Funding.Schedules.Run(context.Background(), scopeOf(f), uid)
			require.NoError(t, err)
		}()
	}
	wg.Wait()
	funded := 0
	for _, r := range ran {
		if r {
			funded++
		}
	}
	require.Equal(t, 1, funded)
	require.Equal(t, int64(-300), fundingBooks(t, f)["instant_payout"])
}

// Two independent River clients on one database (two server processes'
// job engines, each with its own pool) work many sweeps at once over many
// due schedules: every schedule funds exactly once.
func TestTwoJobEnginesSweepEachScheduleOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	const schedules = 15
	for i := range schedules {
		r := f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 100 + i, "cadence": "weekly"})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	}
	// The second process: its own pool, kit, service and River client.
	db2, err := store.Open(ctx, f.env.URL, 4)
	require.NoError(t, err)
	t.Cleanup(db2.Close)
	svc2 := funding.New(&op.Kit{DB: db2, Clock: f.env.Clock, Secret: secrets.NewSource(db2, "")})
	workers2 := river.NewWorkers()
	for _, job := range svc2.RecurringJobs() {
		require.NoError(t, job.AddWorker(workers2))
	}
	engine2, err := jobs.New(db2.Pool, jobs.Config{Clock: f.env.Clock, Workers: workers2, MaxWorkers: 4})
	require.NoError(t, err)
	for _, e := range []struct {
		engine *jobs.Engine
		db     *store.DB
	}{{f.env.Jobs, f.env.DB}, {engine2, db2}} {
		tx, err := e.db.Pool.Begin(ctx)
		require.NoError(t, err)
		for range 6 {
			_, err := e.engine.InsertTx(ctx, tx, funding.SweepArgs{}, nil)
			require.NoError(t, err)
		}
		require.NoError(t, tx.Commit(ctx))
	}
	f.env.StartJobs()
	require.NoError(t, engine2.Start(ctx))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = engine2.Stop(sctx)
	})
	f.env.AwaitWrites(func() bool { // every sweep has run
		var left int
		require.NoError(t, f.env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1
			AND state NOT IN ('completed', 'discarded', 'cancelled')`, funding.SweepArgs{}.Kind()).Scan(&left))
		return left == 0
	}, "river_job")
	var entries, distinct int
	require.NoError(t, f.env.DB.Pool.QueryRow(ctx,
		`SELECT count(*), count(DISTINCT schedule_id) FROM payout_funding_entries`).Scan(&entries, &distinct))
	require.Equal(t, schedules, entries, "one entry per schedule")
	require.Equal(t, schedules, distinct)
	var total int64
	for i := range schedules {
		total += int64(100 + i)
	}
	require.Equal(t, -total, fundingBooks(t, f)["instant_payout"])
}

// Random concurrent top-ups (some with repeated body keys, some replayed
// under an Idempotency-Key), payouts (some declined, some beyond the
// balance) and sweeps: every journal balances, every balance is the sum
// of its entries, the instant-payout balance is never overdrawn, and no
// money is created or lost: what was funded is what was paid out plus
// what is left.
func TestInvariantUnderRandomConcurrentFunding(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.PayoutPricing("absorb")
	a := payoutAccount(t, f, "card_receive")
	cards := []*models.PaymentMethod{f.sk.CreateAccountCard(id(a), "4242424242424242"),
		f.sk.CreateAccountCard(id(a), "4000000000000002"), f.sk.CreateAccountCard(id(a), "4000056655665556")}
	f.sk.CreateFundingSchedule(testenv.FundingSchedule(1500, "daily"))
	const workers, steps = 6, 14
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 29))
			for range steps {
				switch rng.IntN(5) {
				case 0, 1:
					body := map[string]any{"amount": 200 + rng.IntN(3000)}
					if rng.IntN(2) == 0 {
						body["idempotency_key"] = fmt.Sprintf("k%d", rng.IntN(6)) // shared across workers
					}
					f.sk.Do(http.MethodPost, "/v1/payout_funding/top_ups", body, withKey(fmt.Sprintf("t%d-%d", w, rng.IntN(3))))
				case 2, 3:
					r := f.sk.Do(http.MethodPost, "/v1/payouts", cardPayout(cards[rng.IntN(len(cards))], int64(100+rng.IntN(4000))),
						withKey(fmt.Sprintf("p%d-%d", w, rng.IntN(4))))
					require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity, http.StatusBadRequest,
						http.StatusConflict}, r.Status, string(r.Body))
				case 4:
					f.env.Clock.Advance(time.Duration(rng.IntN(30)) * time.Hour)
					_, err := f.env.Services.Funding.Sweep(context.Background())
					require.NoError(t, err)
				}
			}
		}()
	}
	wg.Wait()
	books := fundingBooks(t, f)
	var funded, paid, fees int64
	for _, e := range listAll(t, f, "/v1/payout_funding/entries") {
		funded += num(e["amount"])
	}
	for _, p := range listAll(t, f, "/v1/payouts") {
		if p["status"] == "succeeded" {
			paid += num(p["amount"])
			fees += num(p["merchant_fee"])
		}
	}
	require.Equal(t, funded, books["funding_clearing"], "every funding journaled")
	require.Equal(t, funded-paid-fees, -books["instant_payout"], "funded = paid out + fees + left")
	require.Equal(t, -paid, books["payout_clearing"])
	require.Equal(t, -fees, books["platform_fees"])
}
