package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// jan31 is 09:30 UTC on 31 January 2026: an anchor whose periods end on
// the last day of the shorter months (docs/billing.md).
var jan31 = time.Date(2026, 1, 31, 9, 30, 0, 0, time.UTC)

// yearLater is the twelfth boundary of a monthly subscription anchored on
// jan31, where its thirteenth period starts.
var yearLater = time.Date(2027, 1, 31, 9, 30, 0, 0, time.UTC)

// clockYear is what a year on a test clock leaves: every invoice and
// every event of the merchant, in order, rendered with their ids replaced
// by the order in which they first appear (so two runs compare byte for
// byte apart from ids), and the subscription at the end.
type clockYear struct {
	invoices, events string
	subscription     map[string]any
	eventTypes       []string
	invoiceList      []map[string]any
	// effects are the advances' receipts: "<time> <kind>", in order.
	effects []string
}

// runClockYear starts a monthly subscription of 2000 on a new merchant's
// test clock at jan31, paid with card, and advances the clock through
// steps; each run has its merchant, so invoice numbers and event lists
// are the run's alone.
func runClockYear(t *testing.T, declineRenewals bool, steps []time.Time) clockYear {
	t.Helper()
	return runClockYearWithBudget(t, declineRenewals, steps, 0)
}

// runClockYearWithBudget is runClockYear with advances bounded to budget
// effects a request (0: the default): a step with more due answers 202
// and its continuation runs slice by slice, as the background job does.
func runClockYearWithBudget(t *testing.T, declineRenewals bool, steps []time.Time, budget int) clockYear {
	t.Helper()
	f := setup(t, testenv.WithAdvanceBudget(budget))
	f.sk.StandardPricing()
	clock := f.sk.CreateTestClock(testenv.TestClock(jan31))
	customer := id(f.sk.CreateClockedCustomer(id(clock)))
	f.sk.CreateCard(customer, testenv.Visa)
	sub := f.sk.CreateSubscription(testenv.Subscription(customer, id(f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly")))))
	require.Equal(t, jan31.Unix(), sub.Created.Unix(), "created at the clock's time")
	require.Equal(t, models.SubscriptionActive, sub.Status)
	if declineRenewals {
		bad := f.sk.CreateCard(customer, "4000000000000002")
		r := f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"default_payment_method": id(bad)})
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	}
	var effects []string
	for _, step := range steps {
		for _, effect := range f.advanceToTheEnd(t, id(clock), step) {
			effects = append(effects, effect.At.Time.UTC().Format(time.RFC3339)+" "+string(effect.Kind))
		}
	}
	r := f.sk.Get("/v1/invoices?per_page=100&subscription=" + id(sub))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	invoices := r.JSON()["data"].([]any)
	var list []map[string]any
	for i := len(invoices) - 1; i >= 0; i-- { // oldest first
		list = append(list, invoices[i].(map[string]any))
	}
	r = f.sk.Get("/v1/events?per_page=100&page=1")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var evs []any
	for page := 1; ; page++ {
		r = f.sk.Get(fmt.Sprintf("/v1/events?per_page=100&page=%d", page))
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		data := r.JSON()["data"].([]any)
		evs = append(evs, data...)
		if len(data) < 100 {
			break
		}
	}
	var types []string
	oldestFirst := make([]any, len(evs))
	for i, e := range evs {
		oldestFirst[len(evs)-1-i] = e
	}
	for _, e := range oldestFirst {
		types = append(types, e.(map[string]any)["type"].(string))
	}
	names := &idNames{seen: map[string]string{}}
	return clockYear{invoices: names.render(t, list), events: names.render(t, oldestFirst),
		subscription: f.sk.Get("/v1/subscriptions/" + id(sub)).JSON(), eventTypes: types, invoiceList: list,
		effects: effects}
}

// idNames replaces ids by their order of first appearance, and so the
// sandbox acquirer's codes of a charge, which are derived from its id (the
// charges show in the events of the charge intents invoices are paid
// through).
type idNames struct{ seen map[string]string }

var idPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(whsec|evt|ch|in)_[A-Za-z0-9]+|` +
	`"(acquirer_reference_number|authorization_code)": "[0-9]+"`)

func (n *idNames) render(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.MarshalIndent(v, "", " ")
	require.NoError(t, err)
	return idPattern.ReplaceAllStringFunc(string(raw), func(s string) string {
		if name, ok := n.seen[s]; ok {
			return name
		}
		n.seen[s] = fmt.Sprintf("id#%d", len(n.seen)+1)
		return n.seen[s]
	})
}

// monthlySteps are twelve steps of about a month: the first of each
// month from March 2026 to January 2027, then yearLater; daySteps are
// every day of the year.
func monthlySteps() []time.Time {
	var out []time.Time
	for m := 3; m <= 13; m++ {
		out = append(out, time.Date(2026, time.Month(m), 1, 0, 0, 0, 0, time.UTC))
	}
	return append(out, yearLater)
}

func daySteps() []time.Time {
	var out []time.Time
	for d := jan31.AddDate(0, 0, 1); !d.After(yearLater); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

func TestAYearOnATestClockBillsEveryMonthWhateverTheStep(t *testing.T) {
	t.Parallel()
	one := runClockYear(t, false, []time.Time{yearLater})

	// The first period at creation and twelve renewals, each paid, each
	// for its period on the calendar from the anchor.
	require.Len(t, one.invoiceList, 13)
	ends := []string{"2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31", "2026-08-31",
		"2026-09-30", "2026-10-31", "2026-11-30", "2026-12-31", "2027-01-31", "2027-02-28"}
	for i, inv := range one.invoiceList {
		reason := "subscription_cycle"
		if i == 0 {
			reason = "subscription_create"
		}
		require.Equal(t, reason, inv["billing_reason"], "invoice %d", i)
		require.Equal(t, "paid", inv["status"], "invoice %d", i)
		require.Equal(t, float64(2000), inv["total"], "invoice %d", i)
		require.Equal(t, fmt.Sprintf("INV-%06d", i+1), inv["invoice_number"], "numbered in order")
		line := inv["line_items"].([]any)[0].(map[string]any)
		end := time.Unix(num(line["period_end"]), 0).UTC()
		require.Equal(t, ends[i], end.Format(time.DateOnly), "invoice %d", i)
		require.Equal(t, "09:30:00", end.Format(time.TimeOnly), "invoice %d keeps the anchor's time of day", i)
	}
	require.Equal(t, "active", one.subscription["status"])
	require.Equal(t, yearLater.Unix(), num(one.subscription["current_period_start"]))
	renewals := 0
	for _, typ := range one.eventTypes {
		if typ == "subscription.renewal.completed" {
			renewals++
		}
	}
	require.Equal(t, 12, renewals)
	require.Len(t, one.effects, 12)
	require.Equal(t, "2026-02-28T09:30:00Z renewal", one.effects[0])
	require.Equal(t, "2027-01-31T09:30:00Z renewal", one.effects[11])

	// Twelve monthly steps and 365 daily ones give the same invoices,
	// amounts, periods and events, in the same order.
	for name, steps := range map[string][]time.Time{"twelve monthly steps": monthlySteps(), "a step a day": daySteps()} {
		got := runClockYear(t, false, steps)
		require.Equal(t, one.invoices, got.invoices, name)
		require.Equal(t, one.events, got.events, name)
		require.Equal(t, one.effects, got.effects, name)
	}
	// Bounded to five effects a request, the one-year advance answers 202
	// and the background continuation bills the rest: the same again.
	inSlices := runClockYearWithBudget(t, false, []time.Time{yearLater}, 5)
	require.Equal(t, one.invoices, inSlices.invoices, "in the background")
	require.Equal(t, one.events, inSlices.events, "in the background")
	require.Equal(t, one.effects, inSlices.effects, "in the background")
}

func TestAYearOnATestClockWithADecliningCardFollowsTheDunningSchedule(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "a year of billing on a test clock")
	year := runClockYear(t, true, []time.Time{yearLater})
	// The renewal of 28 February declines: past_due, then retries 3, 5
	// and 7 days after each failed attempt; the fourth failure leaves the
	// subscription unpaid, which neither retries nor renews.
	require.Equal(t, "unpaid", year.subscription["status"])
	require.Len(t, year.invoiceList, 2, "the first period, and the renewal that was never paid")
	open := year.invoiceList[1]
	require.Equal(t, "open", open["status"])
	require.Equal(t, int64(4), num(open["attempt_count"]))
	require.Equal(t, "subscription_cycle", open["billing_reason"])
	require.Equal(t, []string{
		"2026-02-28T09:30:00Z renewal",
		"2026-03-01T00:00:00Z overdue", // due on its day of issue (net_terms 0)
		"2026-03-03T09:30:00Z retry",
		"2026-03-08T09:30:00Z retry",
		"2026-03-15T09:30:00Z retry",
	}, year.effects)
	require.Equal(t, year.subscription["current_period_start"], float64(time.Date(2026, 2, 28, 9, 30, 0, 0, time.UTC).Unix()),
		"an unpaid subscription stays in the period it could not pay for")

	daily := runClockYear(t, true, daySteps())
	require.Equal(t, year.invoices, daily.invoices, "a step a day")
	require.Equal(t, year.events, daily.events, "a step a day")
	require.Equal(t, year.effects, daily.effects, "a step a day")
	inSlices := runClockYearWithBudget(t, true, []time.Time{yearLater}, 2)
	require.Equal(t, year.invoices, inSlices.invoices, "in the background")
	require.Equal(t, year.events, inSlices.events, "in the background")
	require.Equal(t, year.effects, inSlices.effects, "in the background")
}
