package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

func TestSubscriptionCreateBillsTheFirstPeriod(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)

	r := f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"description": "Pro", "metadata": map[string]any{"k": "v"}}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	sub := r.JSON()
	require.Equal(t, subscriptionKeys, keys(sub))
	require.Equal(t, "subscription", sub["object"])
	require.Equal(t, "active", sub["status"])
	require.Equal(t, id(s.Customer), sub["customer"])
	require.Equal(t, id(s.Customer), sub["customer_id"])
	require.Nil(t, sub["account"])
	require.Equal(t, id(s.Product), sub["product"])
	require.Equal(t, "create_prorations", sub["proration_behavior"])
	require.Equal(t, testenv.Start.Unix(), num(sub["current_period_start"]))
	require.Equal(t, testenv.Start.AddDate(0, 1, 0).Unix(), num(sub["current_period_end"]))
	require.Equal(t, int64(2000), num(sub["effective_amount"]))
	plan := sub["plan"].(map[string]any)
	require.Equal(t, "plan", plan["object"])
	require.Equal(t, "monthly", plan["interval"])
	require.Equal(t, int64(2000), num(plan["amount"]))

	invs := subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invs, 1)
	inv := invs[0]
	require.Equal(t, sub["latest_invoice"], id(inv))
	require.Equal(t, "paid", inv["status"])
	require.Equal(t, "subscription_create", inv["billing_reason"])
	require.Equal(t, "charge_automatically", inv["collection_method"])
	require.Equal(t, int64(2000), num(inv["total"]))
	line := inv["line_items"].([]any)[0].(map[string]any)
	require.Equal(t, "subscription", line["kind"])
	require.Equal(t, sub["current_period_start"], line["period_start"])
	require.Equal(t, sub["current_period_end"], line["period_end"])

	got := f.sk.Get("/v1/subscriptions/" + id(sub))
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, sub, got.JSON())

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"customer.subscription.created"}, eventTypes(evs, id(sub)))
	require.Equal(t, []string{"invoice.created", "invoice.issued", "invoice.paid"}, eventTypes(evs, id(inv)))
}

func TestSubscriptionCreateRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	oneTime := testenv.Product()
	oneTime.PurchaseType, oneTime.RecurringInterval = "one_time", ""
	oneTimeID := id(f.sk.CreateProduct(oneTime))
	acct := f.sk.CreateAccount(testenv.Individual())

	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"account": id(acct)})),
		http.StatusUnprocessableEntity, "validation_errors", "customer")
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"customer": del})),
		http.StatusUnprocessableEntity, "validation_errors", "customer")
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"product": del, "currency": del})),
		http.StatusUnprocessableEntity, "validation_errors", "")
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"product": oneTimeID})),
		http.StatusUnprocessableEntity, "validation_errors", "product")
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"proration_behavior": "sometimes"})),
		http.StatusUnprocessableEntity, "validation_errors", "proration_behavior")
	other := f.sk.CreateSubscriber(testenv.Visa)
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"default_payment_method": id(other.Card)})),
		http.StatusUnprocessableEntity, "validation_errors", "default_payment_method")

	// An archived product is refused.
	archived := id(f.sk.CreateProduct(testenv.RecurringProduct(100, "monthly")))
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/products/"+archived, map[string]any{"active": false}).Status)
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"product": archived})),
		http.StatusUnprocessableEntity, "validation_errors", "product")

	// A payer with nothing to charge: 422 and nothing is created.
	bare := f.sk.CreateSubscriber("")
	requireError(t, f.sk.Post("/v1/subscriptions", bare.Subscription().RESTBody()), http.StatusUnprocessableEntity, "payment_method_missing", "")
	require.Empty(t, f.sk.Get("/v1/subscriptions").JSON()["subscriptions"])
	require.Empty(t, f.sk.Get("/v1/invoices").JSON()["data"])

	// A deleted customer refuses new subscriptions.
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(s.Customer)).Status)
	requireError(t, f.sk.Post("/v1/subscriptions", s.Subscription().RESTBody()), http.StatusUnprocessableEntity, "invalid_state", "")
}

func TestSubscriptionDeclinedIsIncompleteUntilPaid(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber("4000000000000002")
	sub := f.sk.CreateSubscription(s.Subscription())
	require.Equal(t, models.SubscriptionIncomplete, sub.Status)
	inv := subscriptionInvoices(t, f.sk, id(sub))[0]
	require.Equal(t, "open", inv["status"])
	require.Equal(t, []string{"customer.subscription.created", "customer.subscription.incomplete"},
		eventTypes(listEvents(t, f.sk, ""), id(sub)))

	good := f.sk.CreateCard(id(s.Customer), testenv.Visa)
	paid := invoiceAction(t, f.sk, id(inv), "pay", map[string]any{"payment_method": id(good)})
	require.Equal(t, "paid", paid["status"])
	require.Equal(t, "active", f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()["status"])
}

func TestSubscriptionForAnAccountAndZeroTotal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	f.sk.CreateAccountCard(id(acct), testenv.Visa)
	free := id(f.sk.CreateProduct(testenv.RecurringProduct(0, "monthly")))
	sub := f.sk.CreateSubscription(testenv.AccountSubscription(id(acct), free))
	require.Equal(t, models.SubscriptionActive, sub.Status)
	require.Equal(t, id(acct), sub.AccountID.String())
	inv := subscriptionInvoices(t, f.sk, id(sub))[0]
	require.Equal(t, "paid", inv["status"])
	require.Nil(t, inv["charge"], "nothing to charge")
	require.Empty(t, eventTypes(listEvents(t, f.sk, ""), id(sub)), "account-owned subscriptions announce nothing")
}

func TestSubscriptionListAndSearch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	first := f.sk.CreateSubscription(s.Subscription())
	f.env.Clock.Advance(time.Hour)
	second := f.sk.CreateSubscription(s.Subscription())
	r := f.sk.Get("/v1/subscriptions?per_page=1")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	body := r.JSON()
	require.Equal(t, []string{"data", "meta", "subscriptions"}, keys(body))
	require.Equal(t, body["subscriptions"], body["data"], "the SDKs read every list from data")
	list := body["subscriptions"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, id(second), id(list[0]))
	require.Equal(t, true, body["meta"].(map[string]any)["has_more"])

	r = f.sk.Post("/v1/subscriptions/"+id(first)+"/cancel", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = f.sk.Get("/v1/subscriptions/search?status=canceled")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	list = r.JSON()["subscriptions"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, id(first), id(list[0]))
	after := testenv.Start.Add(30 * time.Minute).Unix()
	list = f.sk.Get("/v1/subscriptions/search?created_after=" + itoa(after)).JSON()["subscriptions"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, id(second), id(list[0]))
	requireError(t, f.sk.Get("/v1/subscriptions/search?status=sleeping"), http.StatusUnprocessableEntity, "validation_errors", "status")
}

func TestSubscriptionSwapCreateProrations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	bigger := id(f.sk.CreateProduct(testenv.RecurringProduct(5000, "monthly")))
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	// Halfway through the period (to the second).
	half := testenv.Start.Add(end.Sub(testenv.Start) / 2)
	f.env.Clock.Set(half)
	r := f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": bigger, "proration_behavior": "none"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	swapped := r.JSON()
	require.Equal(t, bigger, swapped["product"])
	require.Equal(t, "active", swapped["status"])
	require.Len(t, subscriptionInvoices(t, f.sk, id(sub)), 1, "nothing billed before the next cycle")

	logs := f.sk.Get("/v1/subscriptions/" + id(sub) + "/change_logs")
	require.Equal(t, http.StatusOK, logs.Status, string(logs.Body))
	require.Equal(t, []string{"data", "meta", "subscription_change_logs"}, keys(logs.JSON()))
	require.Equal(t, logs.JSON()["subscription_change_logs"], logs.JSON()["data"])
	entries := logs.JSON()["subscription_change_logs"].([]any)
	require.Len(t, entries, 1)
	entry := entries[0].(map[string]any)
	require.Equal(t, sorted("id", "object", "subscription", "subscription_id", "proration_behavior", "previous_product",
		"new_product", "previous_plan", "current_plan", "effective_date", "created", "change_type", "changed_at", "livemode"), keys(entry))
	require.Equal(t, "subscription_change_log", entry["object"])
	require.Equal(t, "product_swap", entry["change_type"])
	require.Equal(t, id(s.Product), entry["previous_product"])
	require.Equal(t, bigger, entry["new_product"])
	require.Equal(t, int64(5000), num(entry["current_plan"].(map[string]any)["amount"]))
	other := f.sk.Get("/v1/subscription_change_logs?subscription_id=" + id(sub)).JSON()["subscription_change_logs"].([]any)
	require.Len(t, other, 1)

	// The next cycle bills the new price, the credit and the charge.
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	invs := subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invs, 2)
	cycle := invs[0]
	require.Equal(t, "subscription_cycle", cycle["billing_reason"])
	require.Equal(t, "paid", cycle["status"])
	kinds := map[string]int64{}
	for _, l := range cycle["line_items"].([]any) {
		line := l.(map[string]any)
		kinds[line["kind"].(string)] = num(line["amount"])
		if line["kind"] != "subscription" {
			require.NotNil(t, line["proportion"])
		}
	}
	require.Equal(t, map[string]int64{"subscription": 5000, "proration_credit": -1000, "proration_charge": 2500}, kinds)
	require.Equal(t, int64(6500), num(cycle["total"]))
	renewed := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, end.Unix(), num(renewed["current_period_start"]))
	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"customer.subscription.created", "customer.subscription.updated",
		"customer.subscription.updated", "subscription.renewal.completed"}, eventTypes(evs, id(sub)))

	// Applying the same renewal again does nothing.
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	require.Len(t, subscriptionInvoices(t, f.sk, id(sub)), 2)
}

func TestSubscriptionSwapAlwaysInvoiceAndCreditBalance(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription().WithProrationBehavior("always_invoice"))
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	half := testenv.Start.Add(end.Sub(testenv.Start) / 2)
	f.env.Clock.Set(half)

	// Upgrade: a proration invoice of 2500 − 1000, charged at once.
	bigger := id(f.sk.CreateProduct(testenv.RecurringProduct(5000, "monthly")))
	r := f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": bigger})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	invs := subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invs, 2)
	require.Equal(t, "subscription_update", invs[0]["billing_reason"])
	require.Equal(t, "paid", invs[0]["status"])
	require.Equal(t, int64(1500), num(invs[0]["total"]))

	// Downgrade to free: the credit (2500) goes to the credit balance,
	// applied to the next invoice up to its total.
	free := id(f.sk.CreateProduct(testenv.RecurringProduct(1000, "monthly")))
	r = f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": free})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, subscriptionInvoices(t, f.sk, id(sub)), 2, "a negative swap makes no invoice")
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	invs = subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invs, 3)
	cycle := invs[0]
	require.Equal(t, int64(0), num(cycle["total"]), "1000 billed, 1000 of the 2000 credit applied")
	require.Equal(t, "paid", cycle["status"])
	lines := cycle["line_items"].([]any)
	require.Equal(t, "balance", lines[len(lines)-1].(map[string]any)["kind"])
	require.Equal(t, int64(-1000), num(lines[len(lines)-1].(map[string]any)["amount"]))
}

func TestSubscriptionIntervalSwitchIsScheduled(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	yearly := id(f.sk.CreateProduct(testenv.RecurringProduct(20000, "yearly")))
	r := f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": yearly})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := r.JSON()
	require.Equal(t, id(s.Product), got["product"], "the swap waits for the renewal")
	sc := got["scheduled_change"].(map[string]any)
	require.Equal(t, sorted("id", "object", "product", "interval_switch", "effective_date", "created"), keys(sc))
	require.Equal(t, "subscription_scheduled_change", sc["object"])
	require.Equal(t, yearly, sc["product"])
	require.Equal(t, true, sc["interval_switch"])
	require.Equal(t, got["current_period_end"], sc["effective_date"])
	logs := func() []any {
		return f.sk.Get("/v1/subscriptions/" + id(sub) + "/change_logs").JSON()["subscription_change_logs"].([]any)
	}
	require.Empty(t, logs(), "a queued switch has not taken effect: it is logged when the renewal applies it")

	// Removed, then scheduled again and applied at the renewal.
	r = f.sk.Delete("/v1/subscriptions/" + id(sub) + "/scheduled_change")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["scheduled_change"])
	require.Empty(t, logs(), "a dropped switch never took effect")
	requireError(t, f.sk.Delete("/v1/subscriptions/"+id(sub)+"/scheduled_change"), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"product": yearly}).Status)
	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	renewed := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, yearly, renewed["product"])
	require.Nil(t, renewed["scheduled_change"])
	require.Equal(t, end.AddDate(1, 0, 0).Unix(), num(renewed["current_period_end"]))
	require.Equal(t, int64(20000), num(subscriptionInvoices(t, f.sk, id(sub))[0]["total"]))
	require.Len(t, logs(), 1)
	entry := logs()[0].(map[string]any)
	require.Equal(t, id(s.Product), entry["previous_product"])
	require.Equal(t, yearly, entry["new_product"])
	require.Equal(t, float64(end.Unix()), entry["changed_at"], "logged when it took effect")
}

func TestSubscriptionStates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	path := "/v1/subscriptions/" + id(sub)
	requireError(t, f.sk.Post(path+"/resume", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post(path+"/pause", map[string]any{"resume_at": testenv.Start.Add(-time.Hour).Unix()}),
		http.StatusUnprocessableEntity, "validation_errors", "resume_at")
	resumeAt := testenv.Start.AddDate(0, 2, 0)
	r := f.sk.Post(path+"/pause", map[string]any{"resume_at": resumeAt.Unix()})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "paused", r.JSON()["status"])
	require.Equal(t, testenv.Start.Unix(), num(r.JSON()["paused_at"]))
	requireError(t, f.sk.Post(path+"/pause", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Patch(path, map[string]any{"product": id(f.sk.CreateProduct(testenv.RecurringProduct(10, "monthly")))}),
		http.StatusUnprocessableEntity, "invalid_state", "")

	// Paused: the period rolls unbilled, then resume_at resumes it.
	end := nextDue(t, f, "renewal", resumeAt).At
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	require.Len(t, subscriptionInvoices(t, f.sk, id(sub)), 1)
	d := nextDue(t, f, "resume", resumeAt)
	require.NotNil(t, d)
	require.Equal(t, resumeAt.Unix(), d.At.Unix())
	require.NoError(t, applyDue(t, f, "resume", id(sub), d.At))
	got := f.sk.Get(path).JSON()
	require.Equal(t, "active", got["status"])
	require.Nil(t, got["paused_at"])

	r = f.sk.Post(path+"/cancel", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "canceled", r.JSON()["status"])
	requireInt(t, r.JSON()["canceled_at"], "canceled_at")
	requireError(t, f.sk.Post(path+"/cancel", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Patch(path, map[string]any{"description": "x"}), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Nil(t, nextDue(t, f, "renewal", testenv.Start.AddDate(5, 0, 0)), "a canceled subscription does not renew")
}

func TestDeletingACustomerCancelsItsSubscriptions(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	a := f.sk.CreateSubscription(s.Subscription())
	b := f.sk.CreateSubscription(s.Subscription())
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/subscriptions/"+id(b)+"/pause", nil).Status)
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(s.Customer)).Status)
	for _, sub := range []*models.Subscription{a, b} {
		got := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
		require.Equal(t, "canceled", got["status"])
	}
	evs := listEvents(t, f.sk, "customer.subscription.updated")
	require.Len(t, evs, 3, "the pause and the two cancellations")
}

func TestSubscriptionDunning(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	// The card is replaced by one that declines.
	bad := f.sk.CreateCard(id(s.Customer), "4000000000000002")
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/subscriptions/"+id(sub), map[string]any{"default_payment_method": id(bad)}).Status)

	end := nextDue(t, f, "renewal", testenv.Start.AddDate(1, 0, 0)).At
	require.NoError(t, applyDue(t, f, "renewal", id(sub), end))
	require.Equal(t, "past_due", f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()["status"])
	at := end
	for i, wait := range []int{3, 5, 7} {
		d := nextDue(t, f, "retry", at.AddDate(0, 0, 30))
		require.NotNil(t, d, "retry %d", i)
		require.Equal(t, at.AddDate(0, 0, wait), d.At, "retry %d", i)
		at = d.At
		require.NoError(t, applyDue(t, f, "retry", id(sub), at))
	}
	got := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, "unpaid", got["status"])
	require.Nil(t, nextDue(t, f, "retry", at.AddDate(1, 0, 0)))
	require.Nil(t, nextDue(t, f, "renewal", at.AddDate(1, 0, 0)), "an unpaid subscription does not renew")
	open := subscriptionInvoices(t, f.sk, id(sub))[0]
	require.Equal(t, int64(4), num(open["attempt_count"]))

	// Paying the open invoice returns it to active.
	good := f.sk.CreateCard(id(s.Customer), testenv.Visa)
	invoiceAction(t, f.sk, id(open), "pay", map[string]any{"payment_method": id(good)})
	require.Equal(t, "active", f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()["status"])
}

func TestSubscriptionHostile(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())

	_, keys := f.env.NewMerchant(testAuthMerchant("Other"))
	other := f.env.Client(keys.Sandbox.Secret)
	for _, r := range []*testenv.Response{
		other.Get("/v1/subscriptions/" + id(sub)),
		other.Patch("/v1/subscriptions/"+id(sub), map[string]any{"description": "x"}),
		other.Post("/v1/subscriptions/"+id(sub)+"/cancel", nil),
		other.Get("/v1/subscriptions/" + id(sub) + "/change_logs"),
		f.live.Get("/v1/subscriptions/" + id(sub)),
		f.sk.Get("/v1/subscriptions/not-an-id"),
	} {
		requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	}
	requireError(t, other.Post("/v1/subscriptions", s.Subscription().RESTBody()), http.StatusUnprocessableEntity, "validation_errors", "customer")
	requireError(t, f.pk.Get("/v1/subscriptions/"+id(sub)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/subscriptions", s.Subscription().RESTBody()), http.StatusForbidden, "forbidden", "")

	requireError(t, f.sk.Do(http.MethodPost, "/v1/subscriptions", []byte(`{"customer": 12`), nil), http.StatusBadRequest, "invalid_json", "")
	r := f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"description": strings.Repeat("x", 2<<20)}))
	require.Contains(t, []int{http.StatusRequestEntityTooLarge, http.StatusBadRequest, http.StatusUnprocessableEntity}, r.Status)
	requireError(t, f.sk.Post("/v1/subscriptions", merge(s.Subscription().RESTBody(), map[string]any{"product": []any{1}})), http.StatusBadRequest, "parameter_invalid", "product")
}
