package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestInvoicesInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	card := f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	spec := testenv.Product()
	spec.DefaultPrice = 1500
	pr := f.sk.CreateProduct(spec)

	// createInvoice honours the Idempotency-Key.
	const create = `mutation($c: ID!, $p: ID!) { createInvoice(input: {collectionMethod: REQUEST_PAYMENT, customer: $c,
		netTerms: 7, lineItems: [{product: $p, quantity: 2}]}) {
		id status total invoiceNumber collectionMethod billingReason customer { id }
		lineItems { id quantity amount kind periodStart periodEnd proportion product { id } } } }`
	vars := map[string]any{"c": cu.ID.String(), "p": pr.ID.String()}
	first := f.sk.GraphQLWithHeader(create, vars, idemKey("gql-invoice"))
	require.Empty(t, first.Errors, string(first.Raw))
	again := f.sk.GraphQLWithHeader(create, vars, idemKey("gql-invoice"))
	require.Equal(t, first.Data, again.Data)
	inv := obj(first.Data["createInvoice"])
	require.Equal(t, "DRAFT", inv["status"])
	require.Equal(t, float64(3000), inv["total"])
	require.Nil(t, inv["invoiceNumber"])
	require.Equal(t, "MANUAL", inv["billingReason"])
	require.Equal(t, cu.ID.String(), obj(inv["customer"])["id"])
	require.Equal(t, pr.ID.String(), obj(obj(list(inv["lineItems"])[0])["product"])["id"])
	manual := obj(list(inv["lineItems"])[0])
	require.Equal(t, "ITEM", manual["kind"], "a product added by hand")
	require.Nil(t, manual["periodStart"])
	require.Nil(t, manual["periodEnd"])
	require.Nil(t, manual["proportion"])
	invID := inv["id"]

	g := gql(t, f.sk, `mutation($i: ID!, $p: ID!) { createInvoiceLineItem(invoiceId: $i, input: {product: $p, quantity: 1}) { id amount } }`,
		map[string]any{"i": invID, "p": pr.ID.String()})
	line := obj(g.Data["createInvoiceLineItem"])
	g = gql(t, f.sk, `mutation($i: ID!, $l: ID!) { updateInvoiceLineItem(invoiceId: $i, id: $l, input: {quantity: 4}) { amount } }`,
		map[string]any{"i": invID, "l": line["id"]})
	require.Equal(t, float64(6000), obj(g.Data["updateInvoiceLineItem"])["amount"])

	g = gql(t, f.sk, `mutation($i: ID!) { issueInvoice(id: $i) { status invoiceNumber dueDate total } }`, map[string]any{"i": invID})
	require.Equal(t, map[string]any{"status": "OPEN", "invoiceNumber": "INV-000001", "dueDate": "2026-01-22", "total": float64(9000)},
		g.Data["issueInvoice"])
	_, e := gqlError(t, f.sk, `mutation($i: ID!, $l: ID!) { deleteInvoiceLineItem(invoiceId: $i, id: $l) { deleted } }`,
		map[string]any{"i": invID, "l": line["id"]})
	require.Equal(t, "invalid_state", code(e))

	g = gql(t, f.sk, `mutation($i: ID!) { payInvoice(id: $i) { status charge { id amount status paymentMethodId } } }`, map[string]any{"i": invID})
	paid := obj(g.Data["payInvoice"])
	require.Equal(t, "PAID", paid["status"])
	require.Equal(t, float64(9000), obj(paid["charge"])["amount"])
	require.Equal(t, card.ID.String(), obj(paid["charge"])["paymentMethodId"])

	// A second draft is deleted; a third voided.
	g = gql(t, f.sk, create, vars)
	draft := obj(g.Data["createInvoice"])["id"]
	g = gql(t, f.sk, `mutation($i: ID!) { deleteInvoice(id: $i) { id deleted } }`, map[string]any{"i": draft})
	require.Equal(t, true, obj(g.Data["deleteInvoice"])["deleted"])
	g = gql(t, f.sk, create, vars)
	third := obj(g.Data["createInvoice"])["id"]
	gql(t, f.sk, `mutation($i: ID!) { issueInvoice(id: $i) { id } }`, map[string]any{"i": third})
	gql(t, f.sk, `mutation($i: ID!) { markInvoiceUncollectible(id: $i) { id } }`, map[string]any{"i": third})
	g = gql(t, f.sk, `mutation($i: ID!) { voidInvoice(id: $i) { status } }`, map[string]any{"i": third})
	require.Equal(t, "VOID", obj(g.Data["voidInvoice"])["status"])

	g = gql(t, f.sk, `query($c: ID!) { invoices(filter: {customer: $c, status: PAID}) { edges { node { id } } } }`,
		map[string]any{"c": cu.ID.String()})
	require.Len(t, list(obj(g.Data["invoices"])["edges"]), 1)
	g = gql(t, f.sk, `query($i: ID!) { node(id: $i) { ... on Invoice { status } } invoice(id: $i) { invoiceNumber } }`,
		map[string]any{"i": invID})
	require.Equal(t, "PAID", obj(g.Data["node"])["status"])

	// A page of invoices with their lines, products, payers and charges
	// costs the same statements whatever its size.
	for range 3 {
		id := f.sk.CreateInvoice(testenv.Invoice(cu.ID.String(), "request_payment", pr.ID.String(), 2).WithNetTerms(7)).ID.String()
		f.sk.IssueInvoice(id)
		f.sk.InvoiceAction(id, "pay", nil)
	}
	query := `query($first: Int) { invoices(first: $first) { edges { node { id total
		lineItems { id amount product { id name } }
		customer { id email } account { id } charge { id amount } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["invoices"])["edges"]), 5)
	require.Equal(t, small.Statements, big.Statements)
	// credential, page (with the lines), products, customers, charges
	// (no account is asked for: every invoice here is a customer's).
	require.Equal(t, 5, big.Statements)

	// Customer.invoices is the customer's connection.
	g = gql(t, f.sk, `query($c: ID!) { node(id: $c) { ... on Customer { invoices(first: 2) { edges { node { id } } pageInfo { hasNextPage } } } } }`,
		map[string]any{"c": cu.ID.String()})
	conn := obj(obj(g.Data["node"])["invoices"])
	require.Len(t, list(conn["edges"]), 2)
	require.Equal(t, true, obj(conn["pageInfo"])["hasNextPage"])

	// A page of customers with their invoices reads the invoices of the
	// whole page in one statement, whatever its size.
	other := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateInvoice(testenv.Invoice(other.ID.String(), "request_payment", pr.ID.String(), 2).WithNetTerms(7))
	customers := `query($first: Int) { customers(first: $first) { edges { node { id
		invoices(first: 2) { edges { cursor node { id total } } pageInfo { hasNextPage endCursor } } } } } }`
	one := gql(t, f.sk, customers, map[string]any{"first": 1})
	both := gql(t, f.sk, customers, map[string]any{"first": 10})
	require.Equal(t, one.Statements, both.Statements)
	require.Equal(t, 3, both.Statements, "credential, the customers, their invoices")
	pages := list(obj(both.Data["customers"])["edges"])
	require.Len(t, pages, 2)
	mine := obj(obj(obj(pages[1])["node"])["invoices"])
	ids := func(edges any) (out []any) {
		for _, e := range list(edges) {
			out = append(out, obj(obj(e)["node"])["id"])
		}
		return out
	}
	require.Equal(t, ids(conn["edges"]), ids(mine["edges"]), "the batched first page is the list's")
	require.Equal(t, true, obj(mine["pageInfo"])["hasNextPage"])
	require.Len(t, list(obj(obj(obj(pages[0])["node"])["invoices"])["edges"]), 1)

	// The next page, after the batched one's cursor, comes from the list.
	g = gql(t, f.sk, `query($c: ID!, $after: String) { node(id: $c) { ... on Customer { invoices(first: 2, after: $after) { edges { node { id } } } } } }`,
		map[string]any{"c": cu.ID.String(), "after": obj(mine["pageInfo"])["endCursor"]})
	next := list(obj(obj(g.Data["node"])["invoices"])["edges"])
	require.Len(t, next, 2)
	require.NotContains(t, ids(mine["edges"]), obj(obj(next[0])["node"])["id"])
}
