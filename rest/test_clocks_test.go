package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

var testClockKeys = sorted("id", "object", "name", "frozen_time", "advanced_to", "status", "livemode", "created")

const clocksPath = "/v1/test_helpers/test_clocks"

// jan10 is noon on 10 January 2026, UTC: the clocks' starting time.
var jan10 = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

func createClock(t *testing.T, c *testenv.Client, at time.Time) map[string]any {
	t.Helper()
	r := c.Post(clocksPath, map[string]any{"frozen_time": at.Unix(), "name": "run"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

func advanceClock(t *testing.T, c *testenv.Client, clock string, to time.Time) map[string]any {
	t.Helper()
	r := c.Post(clocksPath+"/"+clock+"/advance", map[string]any{"frozen_time": to.Unix()})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON()
}

func TestTestClockCRUD(t *testing.T) {
	t.Parallel()
	f := setup(t)
	clock := createClock(t, f.sk, jan10)
	require.Equal(t, testClockKeys, keys(clock))
	require.Equal(t, "test_clock", clock["object"])
	require.Equal(t, "run", clock["name"])
	require.Equal(t, jan10.Unix(), num(clock["frozen_time"]))
	require.Equal(t, "ready", clock["status"])
	require.Equal(t, false, clock["livemode"])

	r := f.sk.Get(clocksPath + "/" + id(clock))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, clock, r.JSON())

	second := f.sk.CreateTestClock(testenv.TestClock(jan10))
	r = f.sk.Get(clocksPath + "?per_page=1")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	page := r.JSON()
	require.Equal(t, sorted("meta", "data"), keys(page))
	data := page["data"].([]any)
	require.Len(t, data, 1)
	require.Equal(t, id(second), id(data[0]), "newest first")
	require.Equal(t, true, page["meta"].(map[string]any)["has_more"])

	// The same time is a no-op; the past is refused.
	same := advanceClock(t, f.sk, id(clock), jan10)
	require.Equal(t, jan10.Unix(), num(same["frozen_time"]))
	require.Equal(t, map[string]any{"effects": []any{}}, same["receipt"])
	requireValidation(t, f.sk.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{"frozen_time": jan10.Unix() - 1}), "frozen_time")
	later := advanceClock(t, f.sk, id(clock), jan10.Add(time.Hour))
	require.Equal(t, jan10.Add(time.Hour).Unix(), num(later["frozen_time"]))
	require.Equal(t, "ready", later["status"])

	r = f.sk.Delete(clocksPath + "/" + id(clock))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"id": id(clock), "object": "test_clock", "deleted": true}, r.JSON())
	requireError(t, f.sk.Get(clocksPath+"/"+id(clock)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Delete(clocksPath+"/"+id(clock)), http.StatusNotFound, "resource_missing", "id")
}

func TestTestClockRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	clock := f.sk.CreateTestClock(testenv.TestClock(jan10))

	requireValidation(t, f.sk.Post(clocksPath, map[string]any{"name": "x"}), "frozen_time")
	requireValidation(t, f.sk.Post(clocksPath, map[string]any{"frozen_time": -5}), "frozen_time")
	requireValidation(t, f.sk.Post(clocksPath, map[string]any{"frozen_time": int64(253402300800)}), "frozen_time")
	require.Equal(t, http.StatusBadRequest, f.sk.Post(clocksPath, map[string]any{"frozen_time": "soon"}).Status)
	requireValidation(t, f.sk.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{}), "frozen_time")

	// Test helpers: the sandbox secret key only.
	for _, r := range []*testenv.Response{
		f.pk.Post(clocksPath, map[string]any{"frozen_time": jan10.Unix()}),
		f.pk.Get(clocksPath + "/" + id(clock)),
		f.pk.Get(clocksPath),
		f.live.Post(clocksPath, map[string]any{"frozen_time": jan10.Unix()}),
		f.live.Get(clocksPath + "/" + id(clock)),
		f.live.Get(clocksPath),
		f.live.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{"frozen_time": jan10.Unix()}),
		f.live.Delete(clocksPath + "/" + id(clock)),
	} {
		requireError(t, r, http.StatusForbidden, "forbidden", "")
	}

	// Another merchant's clock is unknown, and cannot be bound to.
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireError(t, other.Get(clocksPath+"/"+id(clock)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, other.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{"frozen_time": jan10.Unix()}),
		http.StatusNotFound, "resource_missing", "id")
	requireError(t, other.Delete(clocksPath+"/"+id(clock)), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, other.Get(clocksPath).JSON()["data"])
	requireValidation(t, other.Post("/v1/customers", merge(testenv.Customer().RESTBody(), map[string]any{"test_clock": id(clock)})), "test_clock")
	requireValidation(t, f.sk.Post("/v1/customers", merge(testenv.Customer().RESTBody(), map[string]any{"test_clock": "nope"})), "test_clock")
}

// clockedPayer is a customer bound to a new clock, and a product priced
// 1500 to bill it.
type clockedPayer struct {
	clock string
	testenv.InvoicePayer
}

func newClockedPayer(t *testing.T, c *testenv.Client) clockedPayer {
	t.Helper()
	clock := c.CreateTestClock(testenv.TestClock(jan10))
	cu := c.CreateClockedCustomer(id(clock))
	require.Equal(t, &clock.ID, cu.TestClockID)
	require.Equal(t, jan10.Unix(), cu.Created.Unix(), "created at the clock's time")
	product := testenv.Product()
	product.DefaultPrice = 1500
	return clockedPayer{clock: id(clock), InvoicePayer: testenv.InvoicePayer{Customer: cu, Product: c.CreateProduct(product)}}
}

// issueWithTerms issues a request_payment invoice due net days after the
// clock's day. The invoice is returned as JSON, since the tests read its
// dates as the wire spells them; net_terms is sent even when 0 (due on
// the day), which an InvoiceSpec would leave to the server's default.
func (p clockedPayer) issueWithTerms(t *testing.T, c *testenv.Client, net int) map[string]any {
	t.Helper()
	body := p.Invoice("request_payment", 1).RESTBody()
	body["net_terms"] = net
	inv := createInvoice(t, c, body)
	return invoiceAction(t, c, id(inv), "issue", nil)
}

// effectsOf renders a receipt's effects as (at, kind, invoice name, event
// types), naming each invoice by names.
func effectsOf(t *testing.T, receipt any, names map[string]string) []string {
	t.Helper()
	var out []string
	for _, e := range receipt.(map[string]any)["effects"].([]any) {
		effect := e.(map[string]any)
		line := time.Unix(num(effect["at"]), 0).UTC().Format(time.RFC3339) + " " + effect["kind"].(string) + " " +
			names[effect["object_id"].(string)]
		for _, ev := range effect["events"].([]any) {
			line += " " + ev.(map[string]any)["type"].(string)
		}
		out = append(out, line)
	}
	return out
}

func TestTestClockAdvanceAppliesOverdueNoticesInOrderWhateverTheStep(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "the same billing months advanced in several step sizes")
	f := setup(t)
	want := []string{
		"2026-01-14T00:00:00Z overdue net3 invoice.overdue",
		"2026-01-16T00:00:00Z overdue net5 invoice.overdue",
		"2026-01-21T00:00:00Z overdue net10 invoice.overdue",
	}
	run := func(steps []time.Time) []string {
		p := newClockedPayer(t, f.sk)
		names := map[string]string{}
		for _, net := range []int{10, 3, 5} {
			inv := p.issueWithTerms(t, f.sk, net)
			require.Equal(t, jan10.Unix(), num(inv["issued_at"]), "issued at the clock's time")
			require.Equal(t, jan10.AddDate(0, 0, net).Format(time.DateOnly), inv["due_date"])
			names[id(inv)] = map[int]string{10: "net10", 3: "net3", 5: "net5"}[net]
		}
		var got []string
		for _, step := range steps {
			clock := advanceClock(t, f.sk, p.clock, step)
			require.Equal(t, step.Unix(), num(clock["frozen_time"]))
			got = append(got, effectsOf(t, clock["receipt"], names)...)
		}
		for invID := range names {
			inv := f.sk.Get("/v1/invoices/" + invID).JSON()
			require.NotNil(t, inv["overdue_at"])
			require.Equal(t, 1, f.overdueEvents(t, invID), "announced once")
		}
		return got
	}
	end := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	require.Equal(t, want, run([]time.Time{end}), "one step")
	var daily []time.Time
	for d := jan10.AddDate(0, 0, 1); !d.After(end); d = d.AddDate(0, 0, 1) {
		daily = append(daily, d)
	}
	require.Equal(t, want, run(daily), "a step a day")
	require.Equal(t, want, run([]time.Time{time.Date(2026, 1, 14, 0, 0, 0, 0, time.UTC), end}), "a step ending on a due instant")
}

// A second advance of a clock while the first is applying its effects is
// 409 clock_advancing at once, with how far the first has got, without
// queueing behind the first's write; the first applies every effect once
// and answers ready. The test holds the first effect's invoice, so the
// second request arrives while the first is mid-way.
func TestTestClockAdvancesOfOneClockSerialize(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newClockedPayer(t, f.sk)
	var invoices []string
	for _, net := range []int{1, 2, 3, 4} {
		invoices = append(invoices, id(p.issueWithTerms(t, f.sk, net)))
	}
	target := time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC)
	advance := func() *testenv.Response {
		return f.sk.Post(clocksPath+"/"+p.clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	}
	hold := f.hold(t, "SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE", invoices[0])
	first := start(advance)
	f.awaitLockWaits(t, 1) // its first write holds the clock, waiting for the invoice

	refused := advance() // answered while the first still holds the clock
	e := requireError(t, refused, http.StatusConflict, "clock_advancing", "")
	// The first had claimed the clock and not yet moved it: its effect
	// write, the one the hold keeps waiting, has not committed.
	require.Equal(t, map[string]any{"advanced_to": float64(jan10.Unix()),
		"frozen_time": float64(target.Unix())}, e["details"], "how far the first has got, and where it goes")
	hold.release(t)

	done := first.answer(t)
	require.Equal(t, http.StatusOK, done.Status, string(done.Body))
	require.Equal(t, target.Unix(), num(done.JSON()["frozen_time"]))
	require.Equal(t, "ready", done.JSON()["status"])
	require.Len(t, done.JSON()["receipt"].(map[string]any)["effects"], len(invoices), "each effect applied once")
	for _, inv := range invoices {
		require.Equal(t, 1, f.overdueEvents(t, inv))
	}
	// Ready again, the same advance is a no-op.
	again := advance()
	require.Equal(t, http.StatusOK, again.Status, string(again.Body))
	require.Equal(t, map[string]any{"effects": []any{}}, again.JSON()["receipt"])
}

// overdueEvents counts the invoice.overdue events of an invoice.
func (f *fixture) overdueEvents(t *testing.T, invoice string) int {
	t.Helper()
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM events WHERE type = 'invoice.overdue' AND object_id = ?",
		invoice).Scan(context.Background(), &n))
	return n
}

func TestOverdueNoticesOnTheServerClock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	start := f.env.Clock.Now()
	inv := f.sk.IssueInvoice(id(f.sk.CreateInvoice(p.Invoice("request_payment", 1).WithNetTerms(1))))
	// A clock-bound payer's invoice is not the server clock's.
	clocked := newClockedPayer(t, f.sk)
	bound := clocked.issueWithTerms(t, f.sk, 0)

	billing := f.env.Services.Billing
	n, err := billing.RunAllDue(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "nothing due yet")

	f.env.Clock.Set(start.AddDate(0, 0, 3))
	n, err = billing.RunAllDue(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = billing.RunAllDue(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "a second run applies nothing again")
	require.Equal(t, 1, f.overdueEvents(t, id(inv)))
	require.Zero(t, f.overdueEvents(t, id(bound)))
	due := time.Date(start.Year(), start.Month(), start.Day()+2, 0, 0, 0, 0, time.UTC)
	require.Equal(t, due.Unix(), num(f.sk.Get("/v1/invoices/" + id(inv)).JSON()["overdue_at"]), "at the instant it fell due")
}

func TestTestClockDeletionKeepsTheBooksBalanced(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newClockedPayer(t, f.sk)
	card := id(f.sk.CreateCard(id(p.Customer), testenv.Visa))
	paid := f.sk.IssueInvoice(id(f.sk.CreateInvoice(p.Invoice("charge_automatically", 2))))
	require.Equal(t, models.InvoicePaid, paid.Status, "charged to %s", card)
	open := p.issueWithTerms(t, f.sk, 5)
	draft := f.sk.CreateInvoice(p.Invoice("request_payment", 1))
	r := f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"test_clock": p.clock}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	account := r.JSON()
	require.Equal(t, p.clock, account["test_clock"])
	require.Equal(t, jan10.Unix(), num(account["created"]))
	balances := f.ledgerBalances(t)

	r = f.sk.Delete(clocksPath + "/" + p.clock)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	require.Equal(t, true, f.sk.Get("/v1/customers/" + id(p.Customer)).JSON()["deleted"])
	require.Equal(t, "disabled", f.sk.Get("/v1/accounts/" + id(account)).JSON()["status"])
	require.Equal(t, "void", f.sk.Get("/v1/invoices/" + id(open)).JSON()["status"])
	require.Equal(t, http.StatusNotFound, f.sk.Get("/v1/invoices/"+id(draft)).Status)
	require.Equal(t, "paid", f.sk.Get("/v1/invoices/" + id(paid)).JSON()["status"], "a paid invoice keeps its charge")
	require.Equal(t, balances, f.ledgerBalances(t), "no journal removed or added")
	var unbalanced int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM (SELECT journal_id FROM ledger_entries
		GROUP BY merchant_id, journal_id, currency HAVING sum(amount) <> 0) AS j`).Scan(context.Background(), &unbalanced))
	require.Zero(t, unbalanced, "every journal balances")
}

// ledgerBalances are the ledger's accounts and balances.
func (f *fixture) ledgerBalances(t *testing.T) map[string]int64 {
	t.Helper()
	var rows []struct {
		Party   string
		Balance int64
	}
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT party || ' ' || currency AS party, balance FROM ledger_accounts").
		Scan(context.Background(), &rows))
	out := map[string]int64{}
	var total int64
	for _, r := range rows {
		out[r.Party] = r.Balance
		total += r.Balance
	}
	require.Zero(t, total, "the books balance")
	require.NotEmpty(t, out, "the charge was journaled")
	return out
}

func TestTestClockAdvanceReplaysUnderItsIdempotencyKeyAfterTheClockMovedOn(t *testing.T) {
	t.Parallel()
	f := setup(t)
	clock := f.sk.CreateTestClock(testenv.TestClock(jan10))
	path := clocksPath + "/" + id(clock) + "/advance"
	key := http.Header{"Idempotency-Key": {"advance-1"}}
	first := f.sk.Do(http.MethodPost, path, map[string]any{"frozen_time": jan10.Add(time.Hour).Unix()}, key)
	require.Equal(t, http.StatusOK, first.Status, string(first.Body))
	f.sk.AdvanceTestClock(id(clock), jan10.Add(2*time.Hour))

	again := f.sk.Do(http.MethodPost, path, map[string]any{"frozen_time": jan10.Add(time.Hour).Unix()}, key)
	require.Equal(t, http.StatusOK, again.Status, string(again.Body))
	require.JSONEq(t, string(first.Body), string(again.Body), "the recorded answer, though the clock has passed it")
	require.Equal(t, jan10.Add(2*time.Hour).Unix(), num(f.sk.Get(clocksPath + "/" + id(clock)).JSON()["frozen_time"]), "and nothing moved")

	// Without the key, the same target is in the clock's past.
	requireValidation(t, f.sk.Post(path, map[string]any{"frozen_time": jan10.Add(time.Hour).Unix()}), "frozen_time")
}
