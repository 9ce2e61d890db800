package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A subscription with its phases and plan, and an invoice with its lines,
// are one statement after the credential's, alone or as a page.
func TestBillingReadsAreOneStatementEach(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	product := monthlyProduct(f, 2000, "monthly")
	f.sk.CreatePhase(product, testenv.StaticPhase(0, 1000, 1))
	var subID, invID string
	for range 2 {
		cu := f.sk.CreateCustomer(testenv.Customer())
		f.sk.CreateCard(cu.ID.String(), testenv.Visa)
		subID = f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), product)).ID.String()
		invID = f.sk.CreateInvoice(testenv.Invoice(cu.ID.String(), "request_payment", product, 2)).ID.String()
	}
	const sub = `id plan { id amount } phases { id ordinal amount } effectiveAmount`
	const inv = `id total lineItems { id amount quantity }`
	for name, q := range map[string]string{
		"subscription":  `query($id: ID!) { subscription(id: $id) { ` + sub + ` } }`,
		"subscriptions": `{ subscriptions(first: 10) { edges { node { ` + sub + ` } } } }`,
		"invoice":       `query($id: ID!) { invoice(id: $id) { ` + inv + ` } }`,
		"invoices":      `{ invoices(first: 10) { edges { node { ` + inv + ` } } } }`,
	} {
		vars := map[string]any{}
		if name == "subscription" {
			vars["id"] = subID
		} else if name == "invoice" {
			vars["id"] = invID
		}
		g := gql(t, f.sk, q, vars)
		require.Equal(t, 2, g.Statements, name+": credential, the object or the page")
	}
}
