package graph_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The usage payers here are on the harness's clock (15 January 2026,
// noon UTC); their events are reported in January.

const billingCreditFields = `id customerId accountId productId billingCredits availableCredits usedCredits status
	watchlist limited expires metadata livemode created updated customer { id email } account { id } product { id name }`

const createBillingCredit = `mutation($in: CreateBillingCreditInput!) { createBillingCredit(input: $in) {` +
	billingCreditFields + `} }`

// pricedProduct is a product priced price per unit of the meter of
// eventName.
func pricedProduct(f *fixture, eventName string, price int64) string {
	spec := testenv.Product()
	spec.DefaultPrice = price
	product := f.sk.CreateProduct(spec).ID.String()
	f.sk.PriceMeter(eventName, product, "")
	return product
}

func TestBillingCreditsThroughTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	product := pricedProduct(f, "api.calls", 3)

	g := gql(t, f.sk, createBillingCredit, map[string]any{"in": map[string]any{"product": product, "billingCredits": 10,
		"expires": "2026-02-15T00:00:00Z", "customer": cu.ID.String(), "metadata": map[string]any{"k": "v"}}})
	c := obj(g.Data["createBillingCredit"])
	require.Equal(t, "10", c["billingCredits"])
	require.Equal(t, "10", c["availableCredits"])
	require.Equal(t, "0", c["usedCredits"])
	require.Equal(t, "ACTIVE", c["status"])
	require.Equal(t, false, c["limited"])
	require.Equal(t, false, c["watchlist"])
	require.Equal(t, "2026-02-15T00:00:00Z", c["expires"])
	require.Equal(t, map[string]any{"k": "v"}, c["metadata"])
	require.Equal(t, cu.ID.String(), c["customerId"])
	require.Nil(t, c["accountId"])
	require.Nil(t, c["account"])
	require.Equal(t, product, c["productId"])
	require.Equal(t, map[string]any{"id": cu.ID.String(), "email": cu.Email}, c["customer"])
	require.Equal(t, product, obj(c["product"])["id"])

	// Read back by id, as a node, and in the list filtered by payer and product.
	g = gql(t, f.sk, `query($id: ID!, $cu: ID!, $p: ID!) {
		billingCredit(id: $id) {`+billingCreditFields+`}
		node(id: $id) { ... on BillingCredit { id status } }
		byPayer: billingCredits(filter: {customer: $cu}) { edges { node { id } } pageInfo { hasNextPage } }
		byProduct: billingCredits(filter: {product: $p}, first: 1) { edges { node { id } } }
	}`, map[string]any{"id": c["id"], "cu": cu.ID.String(), "p": product})
	require.Equal(t, c, g.Data["billingCredit"], "read back as created")
	require.Equal(t, map[string]any{"id": c["id"], "status": "ACTIVE"}, g.Data["node"])
	require.Len(t, list(obj(g.Data["byPayer"])["edges"]), 1)
	require.Len(t, list(obj(g.Data["byProduct"])["edges"]), 1)

	// An account's pool, and Account.billingCredits.
	acct := str(f.sk.CreateAccount(testenv.Individual())["id"])
	spec := testenv.BillingCredit(product, "", 5, "2026-03-01T00:00:00Z")
	spec.Account = acct
	pool := f.sk.CreateBillingCredit(spec).ID.String()
	g = gql(t, f.sk, `query($a: ID!) { node(id: $a) { ... on Account { billingCredits { edges { node { id accountId account { id } customer { id } } } } } } }`,
		map[string]any{"a": acct})
	edges := list(obj(obj(g.Data["node"])["billingCredits"])["edges"])
	require.Len(t, edges, 1)
	require.Equal(t, map[string]any{"id": pool, "accountId": acct, "account": map[string]any{"id": acct}, "customer": nil},
		obj(obj(edges[0])["node"]))
}

func TestCreateBillingCreditReportsEveryProblem(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	product := pricedProduct(f, "api.calls", 3)

	// Every field problem at once, as REST reports it.
	g, e := gqlError(t, f.sk, createBillingCredit, map[string]any{"in": map[string]any{"product": product,
		"billingCredits": 0, "expires": "next week"}})
	require.Nil(t, g.Data)
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, http.StatusUnprocessableEntity, status(e))
	require.Equal(t, []any{"createBillingCredit"}, e.Path)
	fields := obj(e.Extensions["errors"])
	for _, k := range []string{"customer", "billing_credits", "expires"} {
		require.Contains(t, fields, k)
	}
	r := f.sk.Post("/v1/billing/billing_credit", map[string]any{"product": product, "billing_credits": 0,
		"expires": "next week"})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, string(r.Body))
	require.Equal(t, fields, obj(r.JSON()["error_details"])["errors"], "the same problems as REST")

	// The write's own checks: an expiry the payer's clock has reached, an unknown product.
	_, e = gqlError(t, f.sk, createBillingCredit, map[string]any{"in": map[string]any{"product": product,
		"billingCredits": 1, "expires": "2026-01-15T11:00:00Z", "customer": cu}})
	require.Equal(t, http.StatusUnprocessableEntity, status(e))
	require.Contains(t, obj(e.Extensions["errors"]), "expires")
	_, e = gqlError(t, f.sk, createBillingCredit, map[string]any{"in": map[string]any{"product": cu,
		"billingCredits": 1, "expires": "2026-02-01T00:00:00Z", "customer": cu}})
	require.Equal(t, http.StatusUnprocessableEntity, status(e), "another object's id as the product")

	// A publishable key neither grants nor reads credits.
	_, e = gqlError(t, f.pk, createBillingCredit, map[string]any{"in": map[string]any{"product": product,
		"billingCredits": 1, "expires": "2026-02-01T00:00:00Z", "customer": cu}})
	require.Equal(t, http.StatusForbidden, status(e))
	_, e = gqlError(t, f.pk, `query { billingCredits { edges { node { id } } } }`, nil)
	require.Equal(t, http.StatusForbidden, status(e))
}

func TestBillingCreditPagesCostTheSameStatementsAtAnySize(t *testing.T) {
	t.Parallel()
	f := setup(t)
	products := []string{pricedProduct(f, "api.calls", 3), pricedProduct(f, "gb", 7)}
	for i := range 3 {
		cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
		for _, p := range products[:1+i%2] {
			f.sk.CreateBillingCredit(testenv.BillingCredit(p, cu, 10, "2026-03-01T00:00:00Z"))
		}
	}

	query := `query($first: Int) { billingCredits(first: $first) { edges { node { id availableCredits
		customer { id email } product { id name } } } } }`
	one := gql(t, f.sk, query, map[string]any{"first": 1})
	all := gql(t, f.sk, query, map[string]any{"first": 10})
	require.Len(t, list(obj(all.Data["billingCredits"])["edges"]), 4)
	require.Equal(t, one.Statements, all.Statements)
	require.Equal(t, 4, all.Statements, "credential, the pools, their customers, their products")

	// Customer.billingCredits reads the pools of a whole page of customers at once.
	customers := `query($first: Int) { customers(first: $first) { edges { node { id
		billingCredits(first: 1) { edges { node { id product { id } } } pageInfo { hasNextPage } } } } } }`
	one = gql(t, f.sk, customers, map[string]any{"first": 1})
	all = gql(t, f.sk, customers, map[string]any{"first": 10})
	require.Equal(t, one.Statements, all.Statements)
	require.Equal(t, 4, all.Statements, "credential, the customers, their pools, the products")
	more := 0
	for _, e := range list(obj(all.Data["customers"])["edges"]) {
		c := obj(obj(obj(e)["node"])["billingCredits"])
		require.Len(t, list(c["edges"]), 1)
		if obj(c["pageInfo"])["hasNextPage"] == true {
			more++
		}
	}
	require.Equal(t, 1, more, "the one customer with two pools has a next page")
}

func TestCreateBillingInvoiceBillsReportedUsage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	f.sk.CreateCard(cu, testenv.Visa)
	spec := testenv.Product()
	spec.DefaultPrice = 3
	product := f.sk.CreateProduct(spec).ID.String()

	meter := f.sk.PriceMeter("api.calls", product, "").ID.String()
	event := f.sk.CreateMeteringEvent(testenv.MeteringEvent("api.calls", "r1", cu).WithValue("10").
		At("2026-01-05T08:00:00Z")).ID.String()
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("api.calls", "r2", cu).WithValue("5").At("2026-01-06T08:00:00Z"))
	credit := f.sk.CreateBillingCredit(testenv.BillingCredit(product, cu, 4, "2026-02-01T00:00:00Z")).ID.String()

	bill := `mutation($in: CreateBillingInvoiceInput!) { createBillingInvoice(input: $in) { id status total currency
		billingReason customer { id } lineItems { kind quantity unitAmountCents amount eventName usage creditsApplied meterId
		periodStart periodEnd product { id } } } }`
	window := map[string]any{"customer": cu, "startDate": "2026-01-01T00:00:00Z", "endDate": "2026-01-15T00:00:00Z"}
	g := gql(t, f.sk, bill, map[string]any{"in": window})
	inv := obj(g.Data["createBillingInvoice"])
	require.Equal(t, "USAGE", inv["billingReason"])
	require.Equal(t, "PAID", inv["status"], "charged automatically by default")
	require.Equal(t, "USD", inv["currency"])
	require.Equal(t, cu, obj(inv["customer"])["id"])
	// U = W = 15, C = 4: 3 · 15 · 11/15 = 33.
	require.Equal(t, float64(33), inv["total"])
	lines := list(inv["lineItems"])
	require.Len(t, lines, 1)
	require.Equal(t, map[string]any{"kind": "USAGE", "quantity": float64(1), "unitAmountCents": float64(33),
		"amount": float64(33), "eventName": "api.calls", "usage": "15", "creditsApplied": "4", "meterId": meter,
		"periodStart": "2026-01-01T00:00:00Z", "periodEnd": "2026-01-15T00:00:00Z", "product": map[string]any{"id": product}},
		obj(lines[0]))

	// The events are billed by it; the pool is used up.
	g = gql(t, f.sk, `query($e: ID!, $c: ID!) { meteringEvent(id: $e) { invoice { id } }
		billingCredit(id: $c) { status availableCredits usedCredits } }`, map[string]any{"e": event, "c": credit})
	require.Equal(t, inv["id"], obj(obj(g.Data["meteringEvent"])["invoice"])["id"])
	require.Equal(t, map[string]any{"status": "EXHAUSTED", "availableCredits": "0", "usedCredits": "4"}, g.Data["billingCredit"])

	// The window is billed: again is refused with REST's rule.
	_, e := gqlError(t, f.sk, bill, map[string]any{"in": window})
	require.Equal(t, "usage_period_invoiced", code(e))
	require.Equal(t, http.StatusUnprocessableEntity, status(e))

	// Every field problem at once; a publishable key bills nothing.
	_, e = gqlError(t, f.sk, bill, map[string]any{"in": map[string]any{"startDate": "2026-01-10T00:00:00Z",
		"endDate": "2026-01-02T00:00:00Z", "events": "bad name", "netTerms": -1}})
	require.Equal(t, "validation_errors", code(e))
	fields := obj(e.Extensions["errors"])
	for _, k := range []string{"customer", "end_date", "events", "net_terms"} {
		require.Contains(t, fields, k)
	}
	_, e = gqlError(t, f.pk, bill, map[string]any{"in": window})
	require.Equal(t, http.StatusForbidden, status(e))
}

func TestUsageThresholdThroughTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	f.sk.CreateCard(cu, testenv.Visa)
	pricedProduct(f, "api.calls", 100)

	const progressFields = `accumulatedAmountCents thresholdAmountCents thresholdPercentage oldestPendingChargeAt
		periodStart periodEnd billingCycle customerId accountId customer { id } account { id } livemode`
	g := gql(t, f.sk, `mutation($cu: ID!) { setUsageThreshold(input: {customer: $cu, thresholdAmountCents: 1000}) {`+
		progressFields+`} }`, map[string]any{"cu": cu})
	require.Equal(t, map[string]any{"accumulatedAmountCents": float64(0), "thresholdAmountCents": float64(1000),
		"thresholdPercentage": float64(0), "oldestPendingChargeAt": nil, "periodStart": "2026-01-01T00:00:00Z",
		"periodEnd": "2026-02-01T00:00:00Z", "billingCycle": "MONTHLY", "customerId": cu, "accountId": nil,
		"customer": map[string]any{"id": cu}, "account": nil, "livemode": false}, g.Data["setUsageThreshold"])

	f.sk.CreateMeteringEvent(testenv.MeteringEvent("api.calls", "a", cu).WithValue("4").At("2026-01-10T00:00:00Z"))
	progress := `query($cu: ID!) { thresholdProgress(customer: $cu) {` + progressFields + `} }`
	g = gql(t, f.sk, progress, map[string]any{"cu": cu})
	p := obj(g.Data["thresholdProgress"])
	require.Equal(t, float64(400), p["accumulatedAmountCents"])
	require.Equal(t, float64(40), p["thresholdPercentage"])
	require.Equal(t, "2026-01-10T00:00:00Z", p["oldestPendingChargeAt"])

	// The event that reaches the threshold is invoiced and charged in its own write.
	g = gql(t, f.sk, `mutation($cu: ID!) { createMeteringEvent(input: {eventName: "api.calls", reference: "b", customer: $cu,
		value: 7}) { invoice { status total billingReason } } }`, map[string]any{"cu": cu})
	require.Equal(t, map[string]any{"status": "PAID", "total": float64(1100), "billingReason": "USAGE"},
		obj(obj(g.Data["createMeteringEvent"])["invoice"]))
	g = gql(t, f.sk, progress, map[string]any{"cu": cu})
	require.Equal(t, float64(0), obj(g.Data["thresholdProgress"])["accumulatedAmountCents"], "accumulation starts again")

	g = gql(t, f.sk, `mutation($cu: ID!) { removeUsageThreshold(customer: $cu) { thresholdAmountCents customer { id } } }`,
		map[string]any{"cu": cu})
	require.Equal(t, map[string]any{"thresholdAmountCents": float64(0), "customer": map[string]any{"id": cu}},
		g.Data["removeUsageThreshold"])

	// Every field problem at once; exactly one payer; a publishable key is refused.
	_, e := gqlError(t, f.sk, `mutation { setUsageThreshold(input: {thresholdAmountCents: 0, billingCycle: MONTHLY}) { thresholdAmountCents } }`, nil)
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, http.StatusUnprocessableEntity, status(e))
	fields := obj(e.Extensions["errors"])
	for _, k := range []string{"customer", "threshold_amount_cents"} {
		require.Contains(t, fields, k)
	}
	// The cycle is an enum: a cycle the server does not bill is no value.
	_, e = gqlError(t, f.sk, `mutation($cu: ID!) { setUsageThreshold(input: {customer: $cu, thresholdAmountCents: 10, billingCycle: WEEKLY}) {
		thresholdAmountCents } }`, map[string]any{"cu": cu})
	require.Equal(t, "GRAPHQL_VALIDATION_FAILED", code(e))
	_, e = gqlError(t, f.sk, `query { thresholdProgress { accumulatedAmountCents } }`, nil)
	require.Equal(t, "validation_errors", code(e))
	require.Contains(t, obj(e.Extensions["errors"]), "customer")
	_, e = gqlError(t, f.pk, progress, map[string]any{"cu": cu})
	require.Equal(t, http.StatusForbidden, status(e))
	_, e = gqlError(t, f.pk, `mutation($cu: ID!) { removeUsageThreshold(customer: $cu) { thresholdAmountCents } }`,
		map[string]any{"cu": cu})
	require.Equal(t, http.StatusForbidden, status(e))
}
