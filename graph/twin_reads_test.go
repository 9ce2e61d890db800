package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The reads that REST had and the graph lacked answer what their REST
// twins answer.

func TestChargeTraceTwin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	chID := f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000)).LatestCharge.String()

	rest := f.sk.Get("/v1/charges/" + chID + "/trace").JSON()
	g := gql(t, f.sk, `query($id: ID!) { chargeTrace(id: $id) { charge { id amount }
		ledgerJournals { kind } events { id type created data } } }`, map[string]any{"id": chID})
	tr := obj(g.Data["chargeTrace"])
	require.Equal(t, chID, obj(tr["charge"])["id"])
	require.Len(t, list(tr["ledgerJournals"]), len(rest["ledger"].(map[string]any)["journals"].([]any)))
	restEvents := list(rest["events"])
	require.NotEmpty(t, restEvents)
	require.Len(t, list(tr["events"]), len(restEvents))
	for i, e := range list(tr["events"]) {
		require.Equal(t, obj(restEvents[i])["id"], obj(e)["id"])
		require.Equal(t, obj(restEvents[i])["type"], obj(e)["type"])
		require.Equal(t, obj(restEvents[i])["data"], obj(e)["data"])
	}
}

func TestInvoiceLineItemTwins(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	pr := f.sk.CreateProduct(testenv.Product())
	inv := f.sk.CreateInvoice(testenv.Invoice(cu.ID.String(), "request_payment", pr.ID.String(), 2).
		WithNetTerms(7).WithLineItem(pr.ID.String(), 1))
	second := inv.LineItems[1].ID.String()

	g := gql(t, f.sk, `query($i: ID!, $l: ID!) { invoiceLineItems(invoiceId: $i) { id quantity }
		invoiceLineItem(invoiceId: $i, id: $l) { id quantity } }`, map[string]any{"i": inv.ID.String(), "l": second})
	require.Len(t, list(g.Data["invoiceLineItems"]), 2)
	require.Equal(t, map[string]any{"id": second, "quantity": float64(1)}, g.Data["invoiceLineItem"])
	restData := f.sk.Get("/v1/invoices/" + inv.ID.String() + "/line_items").JSON()["data"].([]any)
	for i, li := range list(g.Data["invoiceLineItems"]) {
		require.Equal(t, obj(restData[i])["id"], obj(li)["id"])
	}
}

func TestPhaseTwins(t *testing.T) {
	t.Parallel()
	f := setup(t)
	pr := f.sk.CreateProduct(testenv.Product()).ID.String()
	phase := f.sk.CreatePhase(pr, testenv.StaticPhase(1, 900, 2)).ID.String()
	g := gql(t, f.sk, `query($p: ID!, $id: ID!) { productPhases(productId: $p) { id }
		productPhase(productId: $p, id: $id) { id ordinal } }`, map[string]any{"p": pr, "id": phase})
	require.Equal(t, []any{map[string]any{"id": phase}}, g.Data["productPhases"])
	require.Equal(t, map[string]any{"id": phase, "ordinal": float64(1)}, g.Data["productPhase"])

	sub := insertSubscriptionRow(t, f)
	sp := f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(1, 900, 2)).ID.String()
	g = gql(t, f.sk, `query($s: ID!, $id: ID!) { subscriptionPhase(subscriptionId: $s, id: $id) { id ordinal } }`,
		map[string]any{"s": sub, "id": sp})
	require.Equal(t, map[string]any{"id": sp, "ordinal": float64(1)}, g.Data["subscriptionPhase"])
}

func TestSubscriptionUsageReportTwin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	f.sk.CreateCard(cu, testenv.Visa)
	product := f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly")).ID.String()
	sub := f.sk.CreateSubscription(testenv.Subscription(cu, product)).ID.String()
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "in", cu).WithValue("3").At("2026-01-15T12:10:00Z"))

	g := gql(t, f.sk, `query($s: ID!) { subscriptionUsageReport(subscription: $s) { usage subscription { id } customer { id } } }`,
		map[string]any{"s": sub})
	u := obj(g.Data["subscriptionUsageReport"])
	require.Equal(t, "3", u["usage"])
	require.Equal(t, sub, obj(u["subscription"])["id"])
	require.Equal(t, cu, obj(u["customer"])["id"])
	rest := f.sk.Get("/v1/billing/report/subscription?subscription=" + sub).JSON()
	require.Equal(t, "3", rest["usage"])
}
