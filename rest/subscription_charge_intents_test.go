package rest_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// A subscription invoice's payment attempts are charge intents
// (docs/billing.md, "Payment attempts are charge intents"): the official
// subscription sample reads the subscription's latest_charge_intent and
// hands that intent's client_secret to its page.

func TestSubscriptionFirstPaymentIsAChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)

	r := f.sk.Post("/v1/subscriptions", s.Subscription().RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	sub := r.JSON()
	require.Equal(t, "active", sub["status"])
	ciID, ok := sub["latest_charge_intent"].(string)
	require.True(t, ok, "latest_charge_intent is the intent's id: %v", sub["latest_charge_intent"])
	inv := subscriptionInvoices(t, f.sk, id(sub))[0]

	got := f.sk.Get("/v1/charge_intents/" + ciID)
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	ci := got.JSON()
	require.Equal(t, "charge_intent", ci["object"])
	require.Equal(t, "succeeded", ci["status"])
	require.Equal(t, num(inv["total"]), num(ci["amount"]))
	require.Equal(t, num(inv["total"]), num(ci["amount_captured"]))
	require.Equal(t, "usd", ci["currency"])
	require.Equal(t, "automatic", ci["authorization_mode"])
	require.Equal(t, id(s.Customer), ci["customer_id"])
	require.Equal(t, id(s.Customer), ci["customer"].(map[string]any)["id"])
	require.Equal(t, id(s.Card), ci["payment_method"].(map[string]any)["id"])
	require.Equal(t, id(sub), ci["subscription"])
	require.Equal(t, id(inv), ci["invoice"])
	require.Equal(t, "Invoice "+inv["invoice_number"].(string), ci["description"])
	require.Regexp(t, `^ci_`+regexp.QuoteMeta(ciID)+`_secret_[A-Za-z0-9]{40}$`, ci["client_secret"],
		"the secret key reads the intent's client secret, as the sample does")
	require.Equal(t, inv["charge"], charged(ci)["id"], "the intent's charge is the invoice's")
	ch := f.sk.Get("/v1/charges/" + inv["charge"].(string)).JSON()
	require.Equal(t, ciID, ch["charge_intent"])
	require.Equal(t, id(inv), ch["invoice"])

	// The page the sample serves reads the intent with the publishable key
	// and the secret.
	pub := f.pk.Get("/v1/charge_intents/" + ciID + "?client_secret=" + url.QueryEscape(ci["client_secret"].(string)))
	require.Equal(t, http.StatusOK, pub.Status, string(pub.Body))
	require.Equal(t, "succeeded", pub.JSON()["status"])
	require.Nil(t, pub.JSON()["customer"], "the publishable key does not see the customer object")

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"charge_intent.created", "charge_intent.succeeded"}, eventTypes(evs, ciID))
	for _, e := range evs {
		if e.object()["id"] == ciID {
			require.Nil(t, e.object()["client_secret"], "events never carry the client secret")
			require.Equal(t, id(inv), e.object()["invoice"])
		}
	}
	created := evs[indexOfType(evs, ciID, "charge_intent.created")].object()
	require.Equal(t, "requires_confirmation", created["status"], "created as it was before the processor answered")
	require.Nil(t, created["latest_charge"])

	// The intents list shows it like any other.
	list := f.sk.Get("/v1/charge_intents").JSON()["data"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, ciID, list[0].(map[string]any)["id"])

	// Its charge is refunded through it as any intent's is.
	refund := f.sk.Post("/v1/refunds", map[string]any{"charge_intent": ciID, "amount": 500})
	require.Equal(t, http.StatusCreated, refund.Status, string(refund.Body))
	require.Equal(t, ciID, refund.JSON()["charge_intent"])
	require.Equal(t, int64(500), num(f.sk.Get("/v1/charges/" + inv["charge"].(string)).JSON()["amount_refunded"]))

	// Another merchant, or the production mode, does not see it.
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	requireError(t, f.env.Client(k.Sandbox.Secret).Get("/v1/charge_intents/"+ciID), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get("/v1/charge_intents/"+ciID), http.StatusNotFound, "resource_missing", "id")
}

func TestSubscriptionEachPaymentAttemptIsItsOwnChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber("4000000000000002")
	sub := f.sk.CreateSubscription(s.Subscription())
	require.Equal(t, models.SubscriptionIncomplete, sub.Status)
	require.NotNil(t, sub.LatestChargeIntentID)
	declined := f.sk.Get("/v1/charge_intents/" + sub.LatestChargeIntentID.String()).JSON()
	require.Equal(t, "failed", declined["status"])
	require.Equal(t, "generic_decline", charged(declined)["failure_code"])
	require.NotEmpty(t, declined["failure_description"])
	require.Zero(t, num(declined["amount_captured"]))
	require.Equal(t, []string{"charge_intent.created", "charge_intent.payment_failed"},
		eventTypes(listEvents(t, f.sk, ""), id(declined)))

	inv := subscriptionInvoices(t, f.sk, id(sub))[0]
	good := f.sk.CreateCard(id(s.Customer), testenv.Visa)
	paid := invoiceAction(t, f.sk, id(inv), "pay", map[string]any{"payment_method": id(good)})
	require.Equal(t, "paid", paid["status"])

	after := f.sk.Get("/v1/subscriptions/" + id(sub)).JSON()
	require.Equal(t, "active", after["status"])
	retried := after["latest_charge_intent"].(string)
	require.NotEqual(t, id(declined), retried, "a new attempt is a new intent")
	ci := f.sk.Get("/v1/charge_intents/" + retried).JSON()
	require.Equal(t, "succeeded", ci["status"])
	require.Equal(t, id(good), ci["payment_method"].(map[string]any)["id"])
	require.Equal(t, paid["charge"], charged(ci)["id"])
	require.Equal(t, "failed", f.sk.Get("/v1/charge_intents/" + id(declined)).JSON()["status"], "the declined attempt stays")
}

func TestInvoicesOfNoSubscriptionAndUnchargedOnesHaveNoChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()

	// An invoice of nothing is paid without a charge: no intent.
	acct := f.sk.CreateAccount(testenv.Individual())
	f.sk.CreateAccountCard(id(acct), testenv.Visa)
	free := f.sk.CreateSubscription(testenv.AccountSubscription(id(acct), id(f.sk.CreateProduct(testenv.RecurringProduct(0, "monthly")))))
	require.Nil(t, free.LatestChargeIntentID)
	require.Contains(t, f.sk.Get("/v1/subscriptions/"+id(free)).JSON(), "latest_charge_intent")

	// An invoice of no subscription is charged as before, with no intent.
	payer := f.sk.CreateInvoicePayer(testenv.Visa)
	inv := f.sk.CreateInvoice(payer.Invoice("charge_automatically", 1))
	issued := invoiceAction(t, f.sk, id(inv), "issue", nil)
	require.Equal(t, "paid", issued["status"])
	ch := f.sk.Get("/v1/charges/" + issued["charge"].(string)).JSON()
	require.Nil(t, ch["charge_intent"])
	require.Empty(t, f.sk.Get("/v1/charge_intents").JSON()["data"])
}

// indexOfType is the index in events of the first event of typ about
// objectID.
func indexOfType(events []event, objectID, typ string) int {
	for i, e := range events {
		if e.Type == typ && e.object()["id"] == objectID {
			return i
		}
	}
	return -1
}
