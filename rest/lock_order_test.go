package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Races of billing writes, each forced into the interleaving in which two
// writes taking their locks in opposite orders deadlock (one of them then
// answered 500): every write keeps the lock order of docs/billing.md
// ("Lock order"), so each race ends with both requests answered and the
// books consistent.

// clockedSubscriber is a customer on a test clock at start, paying with a
// card, subscribed to a product priced 2000 every interval.
type clockedSubscriber struct {
	clock, customer, card, sub string
}

func newClockedSubscriber(t *testing.T, f *fixture, start time.Time, interval, behavior string) clockedSubscriber {
	t.Helper()
	f.sk.StandardPricing()
	s := clockedSubscriber{clock: id(f.sk.CreateTestClock(testenv.TestClock(start)))}
	s.customer = id(f.sk.CreateClockedCustomer(s.clock))
	s.card = id(f.sk.CreateCard(s.customer, testenv.Visa))
	product := id(f.sk.CreateProduct(testenv.RecurringProduct(2000, interval)))
	spec := testenv.Subscription(s.customer, product)
	if behavior != "" {
		spec = spec.WithProrationBehavior(behavior)
	}
	s.sub = id(f.sk.CreateSubscription(spec))
	return s
}

// The race the issue names first: a product swap with always_invoice
// against an advance across the renewal. The advance locks the clock and
// then the subscription; the swap locks the subscription and then inserts
// its proration invoice, whose foreign key to the clock takes a key-share
// lock on the clock row. An advance that locked the clock FOR UPDATE
// deadlocked with it, in either order.
func TestAlwaysInvoiceSwapRacingAnAdvanceAcrossTheRenewal(t *testing.T) {
	t.Parallel()
	for _, order := range []string{"the advance queues first", "the swap queues first"} {
		t.Run(order, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			s := newClockedSubscriber(t, f, jan31, "monthly", "always_invoice")
			feb20 := time.Date(2026, 2, 20, 9, 30, 0, 0, time.UTC)
			f.sk.AdvanceTestClock(s.clock, feb20)
			bigger := id(f.sk.CreateProduct(testenv.RecurringProduct(5000, "monthly")))
			advance := func() *testenv.Response {
				return f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Unix()})
			}
			swap := func() *testenv.Response {
				return f.sk.Patch("/v1/subscriptions/"+s.sub, map[string]any{"product": bigger})
			}

			var adv, sw *race
			if order == "the advance queues first" {
				// The advance waits at the clock; the swap, holding the
				// subscription, waits at the clock for its invoice's
				// foreign key.
				hold := f.hold(t, "SELECT 1 FROM test_clocks WHERE id = $1 FOR UPDATE", s.clock)
				adv = start(advance)
				f.awaitLockWaits(t, 1)
				sw = start(swap)
				f.awaitLockWaits(t, 2)
				hold.release(t)
			} else {
				// The swap waits at the subscription; the advance, holding
				// the clock, waits there behind it.
				hold := f.hold(t, "SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE", s.sub)
				sw = start(swap)
				f.awaitLockWaits(t, 1)
				adv = start(advance)
				f.awaitLockWaits(t, 2)
				hold.release(t)
			}
			swapped, advanced := sw.answer(t), adv.answer(t)
			require.Equal(t, http.StatusOK, swapped.Status, string(swapped.Body))
			require.Equal(t, http.StatusOK, advanced.Status, string(advanced.Body))
			require.Equal(t, "ready", advanced.JSON()["status"])

			// The swap took effect at the clock's time before the renewal
			// (the renewal waited for it): prorated on an invoice of its
			// own, then the renewal billed the new product in full.
			got := f.sk.Get("/v1/subscriptions/" + s.sub).JSON()
			require.Equal(t, bigger, got["product"])
			require.Equal(t, "active", got["status"])
			var reasons []string
			var totals []float64
			for _, inv := range subscriptionInvoices(t, f.sk, s.sub) {
				require.Equal(t, "paid", inv["status"])
				reasons = append(reasons, inv["billing_reason"].(string))
				totals = append(totals, inv["total"].(float64))
			}
			require.ElementsMatch(t, []string{"subscription_create", "subscription_update", "subscription_cycle"}, reasons)
			require.Contains(t, totals, float64(5000), "the renewal bills the new product")
			f.ledgerBalances(t)
		})
	}
}

// A pay of a subscription's open invoice against an advance renewing the
// subscription, both charging the same card: the pay locks the invoice,
// then the subscription, then the card; the renewal the subscription and
// then the card. A pay that charged before locking the subscription held
// the card while the renewal held the subscription.
func TestPayRacingAnAdvanceThatRenewsOnTheSameCard(t *testing.T) {
	t.Parallel()
	f := setup(t)
	day0 := time.Date(2026, 1, 10, 23, 0, 0, 0, time.UTC)
	s := newClockedSubscriber(t, f, day0, "daily", "")
	declining := id(f.sk.CreateCard(s.customer, "4000000000000002"))
	setCard := func(card string) {
		r := f.sk.Patch("/v1/subscriptions/"+s.sub, map[string]any{"default_payment_method": card})
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	}
	// The first renewal declines: past_due, its invoice open. The
	// overdue notice of the next midnight is applied before the race.
	setCard(declining)
	f.sk.AdvanceTestClock(s.clock, day0.Add(26*time.Hour))
	require.Equal(t, "past_due", f.sk.Get("/v1/subscriptions/" + s.sub).JSON()["status"])
	var open string
	for _, inv := range subscriptionInvoices(t, f.sk, s.sub) {
		if inv["status"] == "open" {
			open = id(inv)
		}
	}
	require.NotEmpty(t, open)
	setCard(s.card)

	hold := f.hold(t, "SELECT 1 FROM payment_methods WHERE id = $1 FOR UPDATE", s.card)
	pay := start(func() *testenv.Response {
		return f.sk.Post("/v1/invoices/"+open+"/pay", map[string]any{"payment_method": s.card})
	})
	f.awaitLockWaits(t, 1)
	adv := start(func() *testenv.Response {
		return f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": day0.Add(48*time.Hour + 30*time.Minute).Unix()})
	})
	f.awaitLockWaits(t, 2)
	hold.release(t)
	paid, advanced := pay.answer(t), adv.answer(t)
	require.Equal(t, http.StatusOK, paid.Status, string(paid.Body))
	require.Equal(t, "paid", paid.JSON()["status"])
	require.Equal(t, http.StatusOK, advanced.Status, string(advanced.Body))

	got := f.sk.Get("/v1/subscriptions/" + s.sub).JSON()
	require.Equal(t, "active", got["status"], "paid out of dunning, then renewed")
	for _, inv := range subscriptionInvoices(t, f.sk, s.sub) {
		require.Equal(t, "paid", inv["status"], "invoice %s", inv["billing_reason"])
	}
	f.ledgerBalances(t)
}

// A pay of a clock's invoice against the clock's deletion: the deletion
// locks the clock, its customers, its invoices and then its
// subscriptions; the pay the invoice and then its subscription. A
// deletion that locked the subscriptions before the invoices held them
// while the pay held the invoice.
func TestPayRacingTheDeletionOfItsClock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	day0 := time.Date(2026, 1, 10, 23, 0, 0, 0, time.UTC)
	s := newClockedSubscriber(t, f, day0, "daily", "")
	declining := id(f.sk.CreateCard(s.customer, "4000000000000002"))
	r := f.sk.Patch("/v1/subscriptions/"+s.sub, map[string]any{"default_payment_method": declining})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	f.sk.AdvanceTestClock(s.clock, day0.Add(26*time.Hour))
	var open string
	for _, inv := range subscriptionInvoices(t, f.sk, s.sub) {
		if inv["status"] == "open" {
			open = id(inv)
		}
	}
	require.NotEmpty(t, open)

	hold := f.hold(t, "SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE", open)
	pay := start(func() *testenv.Response {
		return f.sk.Post("/v1/invoices/"+open+"/pay", map[string]any{"payment_method": s.card})
	})
	f.awaitLockWaits(t, 1)
	del := start(func() *testenv.Response { return f.sk.Delete(clocksPath + "/" + s.clock) })
	f.awaitLockWaits(t, 2)
	hold.release(t)
	paid, deleted := pay.answer(t), del.answer(t)
	require.Equal(t, http.StatusOK, paid.Status, string(paid.Body))
	require.Equal(t, "paid", paid.JSON()["status"], "the pay queued first")
	require.Equal(t, http.StatusOK, deleted.Status, string(deleted.Body))

	require.Equal(t, "paid", f.sk.Get("/v1/invoices/" + open).JSON()["status"], "a paid invoice keeps its charge")
	require.Equal(t, "canceled", f.sk.Get("/v1/subscriptions/" + s.sub).JSON()["status"])
	require.Equal(t, true, f.sk.Get("/v1/customers/" + s.customer).JSON()["deleted"])
	f.ledgerBalances(t)
}

// A deletion of a clock's customer against an advance renewing its
// subscription: the deletion locks the customer and then its running
// subscriptions; the advance the clock and then the subscription. Both
// queue at the subscription and run one after the other.
func TestCustomerDeletionRacingAnAdvanceAcrossTheRenewal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := newClockedSubscriber(t, f, jan31, "monthly", "")
	hold := f.hold(t, "SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE", s.sub)
	adv := start(func() *testenv.Response {
		return f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Unix()})
	})
	f.awaitLockWaits(t, 1)
	del := start(func() *testenv.Response { return f.sk.Delete("/v1/customers/" + s.customer) })
	f.awaitLockWaits(t, 2)
	hold.release(t)
	advanced, deleted := adv.answer(t), del.answer(t)
	require.Equal(t, http.StatusOK, advanced.Status, string(advanced.Body))
	require.Equal(t, http.StatusOK, deleted.Status, string(deleted.Body))

	// The renewal queued first: the period was billed, then the
	// subscription canceled with its customer.
	require.Len(t, subscriptionInvoices(t, f.sk, s.sub), 2)
	require.Equal(t, "canceled", f.sk.Get("/v1/subscriptions/" + s.sub).JSON()["status"])
	f.ledgerBalances(t)
}
