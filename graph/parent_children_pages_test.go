package graph_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// requireChildPages holds a connection from parents to their children to
// the page-edge contract: the statement count is the same for one parent
// or a page of them, every parent's page is read, and the first parent's
// pages, through a cursor, are want (its children, newest first).
func requireChildPages(t *testing.T, f *fixture, root, edge, parent string, want []any) {
	t.Helper()
	one := `query($first: Int) { ` + root + `(first: $first) { edges { node { id
		` + edge + `(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } } } }`
	small := gql(t, f.sk, one, map[string]any{"first": 1})
	big := gql(t, f.sk, one, map[string]any{"first": 100})
	// The credential, the page of parents, the pages of their children.
	require.Equal(t, small.Statements, big.Statements, string(big.Raw))
	require.Equal(t, 3, big.Statements, string(big.Raw))
	var page map[string]any
	for _, e := range list(obj(big.Data[root])["edges"]) {
		n := obj(obj(e)["node"])
		conn := obj(n[edge])
		if n["id"] == parent {
			page = conn
		}
	}
	require.NotNil(t, page, "the parent is in the page: %s", big.Raw)
	require.Equal(t, len(want) > 2, obj(page["pageInfo"])["hasNextPage"])

	byParent := `query($first: Int, $after: String) { ` + root + `(first: 100) { edges { node { id
		` + edge + `(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } } } } }`
	pageOf := func(vars map[string]any) map[string]any {
		g := gql(t, f.sk, byParent, vars)
		for _, e := range list(obj(g.Data[root])["edges"]) {
			if n := obj(obj(e)["node"]); n["id"] == parent {
				return obj(n[edge])
			}
		}
		t.Fatalf("no parent %s in %s", parent, g.Raw)
		return nil
	}
	first := pageOf(map[string]any{"first": 2})
	next := pageOf(map[string]any{"first": 2, "after": obj(first["pageInfo"])["endCursor"]})
	require.Equal(t, false, obj(next["pageInfo"])["hasNextPage"])
	got := []any{}
	for _, conn := range []map[string]any{first, next} {
		for _, e := range list(conn["edges"]) {
			got = append(got, obj(obj(e)["node"])["id"])
		}
	}
	require.Equal(t, want, got)
}

// newestFirst is ids, created oldest first, in the order a page lists them.
func newestFirst(ids []any) []any {
	out := slices.Clone(ids)
	slices.Reverse(out)
	return out
}

// restIDs is the ids of a REST list's data.
func restIDs(t *testing.T, c *testenv.Client, path string) []any {
	t.Helper()
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	ids := []any{}
	for _, row := range r.JSON()["data"].([]any) {
		ids = append(ids, obj(row)["id"])
	}
	return ids
}

// TestClock.subscriptions, TestClock.customers and Product.subscriptions
// are page edges: three clocks, each with three customers on it, each
// customer subscribed to the clock's own product.
func TestClockAndProductChildrenArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	var clock, product string
	var customers, subscriptions []any
	for i := range 3 {
		clock = f.sk.CreateTestClock(testenv.TestClock(time.Date(2025, 12, 20, 9, 0, 0, 0, time.UTC))).ID.String()
		product = monthlyProduct(f, int64(1000+i), "monthly")
		customers, subscriptions = nil, nil
		for range 3 {
			cu := f.sk.CreateClockedCustomer(clock).ID.String()
			f.sk.CreateCard(cu, testenv.Visa)
			sub := f.sk.CreateSubscription(testenv.Subscription(cu, product))
			customers = append(customers, cu)
			subscriptions = append(subscriptions, sub.ID.String())
			f.env.Clock.Advance(time.Minute)
		}
	}
	// A customer off the clock, subscribed to the last product: on the
	// product's page, not on any clock's.
	cu := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	offClock := f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), product))

	t.Run("TestClock.customers", func(t *testing.T) {
		requireChildPages(t, f, "testClocks", "customers", clock, newestFirst(customers))
	})
	t.Run("TestClock.subscriptions", func(t *testing.T) {
		requireChildPages(t, f, "testClocks", "subscriptions", clock, newestFirst(subscriptions))
	})
	t.Run("Product.subscriptions", func(t *testing.T) {
		requireChildPages(t, f, "products", "subscriptions", product,
			append([]any{offClock.ID.String()}, newestFirst(subscriptions)...))
	})
	t.Run("TestClock.accounts", func(t *testing.T) {
		// No account is on a clock here: every clock's page is empty, in
		// the same statements.
		q := `{ testClocks(first: 100) { edges { node { accounts(first: 2) { edges { node { id } } } } } } }`
		g := gql(t, f.sk, q, nil)
		require.Equal(t, 3, g.Statements, string(g.Raw))
		for _, e := range list(obj(g.Data["testClocks"])["edges"]) {
			require.Empty(t, list(obj(obj(obj(e)["node"])["accounts"])["edges"]))
		}
	})
	t.Run("filters", func(t *testing.T) {
		g := gql(t, f.sk, `query($id: ID!) { product(id: $id) { active: subscriptions(status: ACTIVE) { edges { node { id } } }
			canceled: subscriptions(status: CANCELED) { edges { node { id } } } } }`, map[string]any{"id": product})
		p := obj(g.Data["product"])
		require.Len(t, list(obj(p["active"])["edges"]), 4)
		require.Empty(t, list(obj(p["canceled"])["edges"]))
	})
	t.Run("tenancy", func(t *testing.T) {
		// The live mode sees none of the sandbox's clocks or products.
		g := gql(t, f.live, `{ products(first: 100) { edges { node { subscriptions { edges { node { id } } } } } } }`, nil)
		require.Empty(t, list(obj(g.Data["products"])["edges"]))
	})
}

// WebhookEndpoint.deliveries is a page edge whose pages are REST's list of
// the endpoint's deliveries.
func TestEndpointDeliveriesArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var endpoint string
	for range 3 {
		endpoint = f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost:4242/h", "account.created")).ID.String()
	}
	for range 3 {
		f.sk.CreateAccount(testenv.Individual())
		f.env.Clock.Advance(time.Minute)
	}
	want := restIDs(t, f.sk, "/v1/webhook_endpoints/"+endpoint+"/deliveries")
	require.Len(t, want, 3)
	requireChildPages(t, f, "webhookEndpoints", "deliveries", endpoint, want)

	g := gql(t, f.sk, `query($id: ID!) { webhookEndpoint(id: $id) { failed: deliveries(status: FAILED) { edges { node { id } } }
		all: deliveries(first: 10, status: PENDING) { edges { node { id } } } } }`, map[string]any{"id": endpoint})
	ep := obj(g.Data["webhookEndpoint"])
	require.Equal(t, len(restIDs(t, f.sk, "/v1/webhook_endpoints/"+endpoint+"/deliveries?status=failed")), len(list(obj(ep["failed"])["edges"])))
	require.Equal(t, len(restIDs(t, f.sk, "/v1/webhook_endpoints/"+endpoint+"/deliveries?status=pending")), len(list(obj(ep["all"])["edges"])))
}

// TransferFeePlan.billingAgreements is a page edge: three plans, each
// bound by three agreements.
func TestFeePlanAgreementsArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var plan string
	var agreements []any
	for range 3 {
		plan = f.sk.CreateFeePlan("add_on", testenv.CardFeeItem()).ID.String()
		agreements = nil
		for range 3 {
			pending := testenv.ChargeAgreement(plan).WithStatus("pending")
			agreements = append(agreements, f.sk.CreateBillingAgreement(pending).ID.String())
			f.env.Clock.Advance(time.Minute)
		}
	}
	requireChildPages(t, f, "transferFeePlans", "billingAgreements", plan, newestFirst(agreements))
}
