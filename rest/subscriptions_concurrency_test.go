package rest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A swap racing the renewal: whichever commits first, the period is
// billed once and the subscription ends on the new product with its
// proration settled exactly once.
func TestSwapRacingRenewalBillsOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	bigger := id(f.sk.CreateProduct(testenv.RecurringProduct(5000, "monthly")))
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	f.env.Clock.Set(end.Add(-24 * time.Hour))

	var wg sync.WaitGroup
	var swapStatus int
	var renewErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		swapStatus = f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": bigger}).Status
	}()
	go func() {
		defer wg.Done()
		renewErr = applyDue(t, f, "renewal", id(sub), end)
	}()
	wg.Wait()
	require.NoError(t, renewErr)
	require.Equal(t, http.StatusOK, swapStatus)
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))

	got := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, bigger, got["product"])
	require.Equal(t, end.Unix(), num(got["current_period_start"]))
	invs := subscriptionInvoices(t, f.sk, id(sub))
	cycles := 0
	for _, inv := range invs {
		if inv["billing_reason"] == "subscription_cycle" {
			cycles++
		}
	}
	require.Equal(t, 1, cycles, "the period is billed once")
	require.Len(t, invs, 2)
}

// A cancel racing the renewal: either the renewal bills and then the
// subscription is canceled, or it is canceled first and never billed
// again; never both a cancel and a later renewal.
func TestCancelRacingRenewal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	f.env.Clock.Set(end)

	var wg sync.WaitGroup
	var cancelStatus int
	var renewErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		cancelStatus = f.sk.Post("/v1/subscriptions/"+id(sub)+"/cancel", nil).Status
	}()
	go func() {
		defer wg.Done()
		renewErr = applyDue(t, f, "renewal", id(sub), end)
	}()
	wg.Wait()
	require.NoError(t, renewErr)
	require.Equal(t, http.StatusOK, cancelStatus)
	got := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, "canceled", got["status"])
	invs := subscriptionInvoices(t, f.sk, id(sub))
	renewed := num(got["current_period_start"]) == end.Unix()
	if renewed {
		require.Len(t, invs, 2, "renewed before the cancel: billed once more")
	} else {
		require.Len(t, invs, 1, "canceled first: never billed again")
	}
	require.Nil(t, nextDue(t, f, "renewal", end.AddDate(1, 0, 0)))
}

// Renewals of one period racing each other, and pays of one open invoice
// racing each other, bill once.
func TestRacingRenewalsAndPaysBillOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber("4000000000000002")
	sub := f.sk.CreateSubscription(s.Subscription())
	inv := subscriptionInvoices(t, f.sk, id(sub))[0]
	good := f.sk.CreateCard(id(s.Customer), testenv.Visa)

	const n = 4
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post("/v1/invoices/"+id(inv)+"/pay", map[string]any{"payment_method": id(good)}).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, st := range statuses {
		if st == http.StatusOK {
			ok++
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, st)
		}
	}
	require.Equal(t, 1, ok, "one pay charges")
	require.Equal(t, "active", f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()["status"])
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"default_payment_method": id(good)}).Status)

	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = applyDue(t, f, "renewal", id(sub), end)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, subscriptionInvoices(t, f.sk, id(sub)), 2, "the period is billed once")

	// Each attempt was one charge intent: the declined first one, the one
	// pay that charged, the renewal's.
	intents := f.sk.Get("/v1/charge_intents?per_page=100").JSON()["data"].([]any)
	byStatus := map[any]int{}
	for _, ci := range intents {
		byStatus[ci.(map[string]any)["status"]]++
	}
	require.Equal(t, map[any]int{"failed": 1, "succeeded": 2}, byStatus)
}

// A pause racing the renewal: the period rolls either way; it is billed
// only when the renewal committed before the pause, and once.
func TestPauseRacingRenewal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	f.env.Clock.Set(end)

	var wg sync.WaitGroup
	var pauseStatus int
	var renewErr error
	var pauseBody string
	wg.Add(2)
	go func() {
		defer wg.Done()
		r := f.sk.Post("/v1/subscriptions/"+id(sub)+"/pause", nil)
		pauseStatus, pauseBody = r.Status, string(r.Body)
	}()
	go func() {
		defer wg.Done()
		renewErr = applyDue(t, f, "renewal", id(sub), end)
	}()
	wg.Wait()
	require.NoError(t, renewErr)
	require.Equal(t, http.StatusOK, pauseStatus, pauseBody)
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end), "applied again: nothing more")

	got := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, "paused", got["status"])
	require.Equal(t, end.Unix(), num(got["current_period_start"]), "the period rolled")
	invs := subscriptionInvoices(t, f.sk, id(sub))
	require.LessOrEqual(t, len(invs), 2)
	require.GreaterOrEqual(t, len(invs), 1)
	if len(invs) == 2 {
		require.Equal(t, "subscription_cycle", invs[0]["billing_reason"], "renewed before the pause: billed once")
	}
}
