package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// settle runs the settlement of transfer id as its job does, at the
// test's clock, and returns how long is left before it is due.
func settle(t *testing.T, f *fixture, transferID string) time.Duration {
	t.Helper()
	wait, err := f.env.Services.Money.SettleTransfer(context.Background(), scopeOf(f), uuid.MustParse(transferID))
	require.NoError(t, err)
	return wait
}

func balance(t *testing.T, f *fixture, party string) int64 {
	t.Helper()
	b, err := ledger.Balance(context.Background(), f.env.DB.Tenant(scopeOf(f)), party, "USD")
	require.NoError(t, err)
	return b
}

// settleJobAt is the scheduled time of the transfer's settlement job.
func settleJobAt(t *testing.T, f *fixture, transferID string) []time.Time {
	t.Helper()
	var at []time.Time
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT scheduled_at FROM river_job WHERE kind = 'transfer.settle' AND args->>'transfer_id' = ?",
		transferID).Scan(context.Background(), &at))
	return at
}

// A card charge settles the next day by the clock: before, nothing
// happens; then one settlement journal moves the clearing balance to
// settled funds and transfer.completed is announced, once however often
// the job runs.
func TestCardChargeSettlesNextDay(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	require.Equal(t, models.TransferSucceeded, tr.Status)
	captured := time.Unix(tr.Updated.Unix(), 0)
	at := settleJobAt(t, f, id(tr))
	require.Len(t, at, 1, "the capture enqueued its settlement")
	require.WithinDuration(t, captured.Add(24*time.Hour), at[0], time.Second)

	wait := settle(t, f, id(tr))
	require.InDelta(t, (24 * time.Hour).Seconds(), wait.Seconds(), 5)
	require.Empty(t, listEvents(t, f.sk, "transfer.completed"))
	require.Equal(t, int64(1000), balance(t, f, "card_clearing"))

	f.env.Clock.Advance(24 * time.Hour)
	require.Zero(t, settle(t, f, id(tr)))
	require.Zero(t, settle(t, f, id(tr)), "a job run twice completes once")
	completed := listEvents(t, f.sk, "transfer.completed")
	require.Len(t, completed, 1)
	require.Equal(t, id(tr), completed[0].object()["id"])
	require.Equal(t, "succeeded", completed[0].object()["status"], "the status vocabulary stays the spec's")
	require.Equal(t, []string{"transfer.created", "transfer.succeeded", "transfer.completed"}, eventTypes(listEvents(t, f.sk, ""), id(tr)))
	require.Equal(t, int64(0), balance(t, f, "card_clearing"))
	require.Equal(t, int64(1000), balance(t, f, "settled_funds"))
	requireBooksHold(t, f)

	g := f.sk.GraphQL(`query($id: ID!) { transfer(id: $id) { status settlesAt completed ledgerJournals { kind entries { party amount } } } }`,
		map[string]any{"id": id(tr)})
	require.Empty(t, g.Errors, string(g.Raw))
	got := g.Data["transfer"].(map[string]any)
	require.NotNil(t, got["completed"])
	require.NotNil(t, got["settlesAt"])
	journals := got["ledgerJournals"].([]any)
	require.Len(t, journals, 2)
	require.Equal(t, map[string]any{"kind": "CHARGE_SETTLE", "entries": []any{
		map[string]any{"party": "settled_funds", "amount": float64(1000)},
		map[string]any{"party": "card_clearing", "amount": float64(-1000)}}}, journals[1])
}

// ACH debits settle after three days, push-to-card payouts within the
// half hour; a decline, an authorization waiting for capture and a
// challenge schedule nothing.
func TestSettlementDelaysByFlow(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	payoutPricing(t, f, "deduct")

	a := f.sk.CreateAccount(testenv.Individual())
	bank := f.sk.CreateACH(testenv.ACH(id(a), testenv.ACHSucceeds))
	ach := f.sk.CreateTransfer(testenv.Charge(id(a), id(bank), 10000))
	require.Equal(t, models.TransferSucceeded, ach.Status)
	b := payee(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(b), "4000056655665556")
	pay := f.sk.CreatePayoutTransfer(testenv.PayoutTransfer(id(b), id(card), 5000))
	require.Equal(t, models.TransferSucceeded, pay.Status)

	require.InDelta(t, (72 * time.Hour).Seconds(), settle(t, f, id(ach)).Seconds(), 5)
	require.InDelta(t, (30 * time.Minute).Seconds(), settle(t, f, id(pay)).Seconds(), 5)
	f.env.Clock.Advance(30 * time.Minute)
	require.Zero(t, settle(t, f, id(pay)))
	require.Equal(t, int64(0), balance(t, f, "payout_clearing"), "what the recipient receives has left")
	require.Equal(t, int64(-4950), balance(t, f, "settled_funds"))
	require.Positive(t, settle(t, f, id(ach)))
	f.env.Clock.Advance(72 * time.Hour)
	require.Zero(t, settle(t, f, id(ach)))
	require.Equal(t, int64(0), balance(t, f, "ach_clearing"))
	require.Equal(t, int64(10000-4950), balance(t, f, "settled_funds"))
	require.Len(t, listEvents(t, f.sk, "transfer.completed"), 2)
	requireBooksHold(t, f)

	for _, number := range []string{"4000000000009995", "4000000000003220"} {
		p := newPayer(t, f.sk, number)
		tr := f.sk.CreateTransfer(p.charging(1000))
		require.Empty(t, settleJobAt(t, f, id(tr)), number)
		require.Zero(t, settle(t, f, id(tr)), number)
	}
	p := newPayer(t, f.sk, "4242424242424242")
	manual := f.sk.CreateTransfer(p.charging(1000).WithAuthorizationMode("manual"))
	require.Empty(t, settleJobAt(t, f, id(manual)), "nothing settles before the capture")
	r := f.sk.Post("/v1/transfers/"+id(manual)+"/capture", map[string]any{"amount_captured_cents": 600})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, settleJobAt(t, f, id(manual)), 1)
	f.env.Clock.Advance(24 * time.Hour)
	require.Zero(t, settle(t, f, id(manual)))
	require.Len(t, listEvents(t, f.sk, "transfer.completed"), 3)
	requireBooksHold(t, f)
}

// The job engine runs the settlement job: once the clock has passed
// settles_at, the worker completes the transfer.
func TestSettlementJobRuns(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(2500))
	f.env.Clock.Advance(25 * time.Hour)
	f.env.StartJobs()
	f.env.AwaitJobs(func() bool { return len(listEvents(t, f.sk, "transfer.completed")) == 1 })
	require.Equal(t, int64(2500), balance(t, f, "settled_funds"))
	require.Equal(t, id(tr), listEvents(t, f.sk, "transfer.completed")[0].object()["id"])
}

// Settlement jobs racing on one transfer (two server processes, a retry)
// complete it once: the transfer's row lock orders them.
func TestConcurrentSettlementCompletesOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	f.env.Clock.Advance(24 * time.Hour)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.env.Services.Money.SettleTransfer(context.Background(), scopeOf(f), uuid.MustParse(id(tr)))
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	require.Len(t, listEvents(t, f.sk, "transfer.completed"), 1)
	require.Equal(t, int64(1000), balance(t, f, "settled_funds"))
	requireBooksHold(t, f)
}
