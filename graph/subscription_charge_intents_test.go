package graph_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A subscription's latest payment attempt is a charge intent
// (docs/billing.md, "Payment attempts are charge intents"): the graph
// follows Subscription.latestChargeIntent and ChargeIntent.subscription
// and invoice through their loaders, a statement per level for a whole
// page.
func TestSubscriptionLatestChargeIntentCostsAStatementPerLevel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	monthly := monthlyProduct(f, 2000, "monthly")
	for range 3 {
		cu := f.sk.CreateCustomer(testenv.Customer())
		f.sk.CreateCard(cu.ID.String(), testenv.Visa)
		f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), monthly))
		f.env.Clock.Advance(time.Minute)
	}

	query := `query($first: Int) { customers(first: $first) { edges { node { id
		subscriptions(first: 5) { edges { node { id latestInvoiceId latestChargeIntentId
			latestChargeIntent { id status amount subscriptionId invoiceId latestChargeId
				subscription { id } invoice { id total } } } } } } } } }`
	one := gql(t, f.sk, query, map[string]any{"first": 1})
	all := gql(t, f.sk, query, map[string]any{"first": 10})
	// credential, the customers, their subscriptions, the intents, the
	// intents' subscriptions, their invoices.
	require.Equal(t, 6, all.Statements, string(all.Raw))
	require.Equal(t, one.Statements, all.Statements)

	pages := list(obj(all.Data["customers"])["edges"])
	require.Len(t, pages, 3)
	for _, p := range pages {
		subs := list(obj(obj(obj(p)["node"])["subscriptions"])["edges"])
		require.Len(t, subs, 1)
		sub := obj(obj(subs[0])["node"])
		ci := obj(sub["latestChargeIntent"])
		require.Equal(t, sub["latestChargeIntentId"], ci["id"])
		require.Equal(t, "SUCCEEDED", ci["status"])
		require.Equal(t, float64(2000), ci["amount"])
		require.Equal(t, sub["id"], ci["subscriptionId"])
		require.Equal(t, sub["id"], obj(ci["subscription"])["id"])
		require.Equal(t, sub["latestInvoiceId"], ci["invoiceId"])
		require.Equal(t, float64(2000), obj(ci["invoice"])["total"])
		require.NotNil(t, ci["latestChargeId"])
	}
}
