package graph_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// monthlyProduct creates a recurring product of price and interval.
func monthlyProduct(f *fixture, price int64, interval string) string {
	return f.sk.CreateProduct(testenv.RecurringProduct(price, interval)).ID.String()
}

const createSubscription = `mutation($in: CreateSubscriptionInput!) { createSubscription(input: $in) {
	id status customerId customer { id } accountId account { id } productId product { id }
	plan { id interval intervalCount amount currency active created }
	currency quantity prorationBehavior currentPeriodStart currentPeriodEnd startDate
	effectiveAmount effectiveInterval effectiveIntervalCount hasPhases metadata description
	defaultPaymentMethodId defaultPaymentMethod { id }
	latestInvoice { id status total billingReason subscription { id }
		lineItems { kind amount periodStart periodEnd proportion } } } }`

func TestSubscriptionsInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	card := f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	monthly := monthlyProduct(f, 2000, "monthly")

	// createSubscription honours the Idempotency-Key; the first period is
	// billed at once.
	vars := map[string]any{"in": map[string]any{"customer": cu.ID.String(), "product": monthly, "currency": "usd",
		"prorationBehavior": "ALWAYS_INVOICE", "description": "Pro", "metadata": map[string]any{"k": "v"}}}
	first := f.sk.GraphQLWithHeader(createSubscription, vars, idemKey("gql-subscription"))
	require.Empty(t, first.Errors, string(first.Raw))
	again := f.sk.GraphQLWithHeader(createSubscription, vars, idemKey("gql-subscription"))
	require.Equal(t, first.Data, again.Data)
	sub := obj(first.Data["createSubscription"])
	subID := sub["id"]
	start, end := testenv.Start.UTC(), testenv.Start.UTC().AddDate(0, 1, 0)
	require.Equal(t, "ACTIVE", sub["status"])
	require.Equal(t, cu.ID.String(), sub["customerId"])
	require.Equal(t, cu.ID.String(), obj(sub["customer"])["id"])
	require.Nil(t, sub["accountId"])
	require.Nil(t, sub["account"])
	require.Equal(t, monthly, obj(sub["product"])["id"])
	require.Equal(t, map[string]any{"id": monthly, "interval": "MONTHLY", "intervalCount": float64(1), "amount": float64(2000),
		"currency": "USD", "active": true, "created": start.Format(time.RFC3339)}, sub["plan"])
	require.Equal(t, "ALWAYS_INVOICE", sub["prorationBehavior"])
	require.Equal(t, start.Format(time.RFC3339), sub["currentPeriodStart"])
	require.Equal(t, end.Format(time.RFC3339), sub["currentPeriodEnd"])
	require.Equal(t, sub["currentPeriodStart"], sub["startDate"])
	require.Equal(t, float64(2000), sub["effectiveAmount"])
	require.Equal(t, "MONTHLY", sub["effectiveInterval"])
	require.Equal(t, false, sub["hasPhases"])
	require.Equal(t, map[string]any{"k": "v"}, sub["metadata"])
	require.Nil(t, sub["defaultPaymentMethodId"], "the customer's default card pays")
	inv := obj(sub["latestInvoice"])
	require.Equal(t, "PAID", inv["status"])
	require.Equal(t, "SUBSCRIPTION_CREATE", inv["billingReason"])
	require.Equal(t, subID, obj(inv["subscription"])["id"])
	require.Equal(t, []any{map[string]any{"kind": "SUBSCRIPTION", "amount": float64(2000), "proportion": nil,
		"periodStart": sub["currentPeriodStart"], "periodEnd": sub["currentPeriodEnd"]}}, inv["lineItems"])

	// Read nested: node(id:), subscription(id:), the payer's connection.
	read := `query($s: ID!, $c: ID!) {
		node(id: $s) { __typename id ... on Subscription { status } }
		subscription(id: $s) { id invoices { edges { node { id total } } } changeLogs { edges { node { id } } } }
		customer(id: $c) { subscriptions { edges { node { id product { id } } } pageInfo { hasNextPage } } } }`
	g := gql(t, f.sk, read, map[string]any{"s": subID, "c": cu.ID.String()})
	require.Equal(t, map[string]any{"__typename": "Subscription", "id": subID, "status": "ACTIVE"}, g.Data["node"])
	require.Len(t, list(obj(obj(g.Data["subscription"])["invoices"])["edges"]), 1)
	require.Empty(t, list(obj(obj(g.Data["subscription"])["changeLogs"])["edges"]))
	mine := obj(obj(g.Data["customer"])["subscriptions"])
	require.Len(t, list(mine["edges"]), 1)
	require.Equal(t, subID, obj(obj(list(mine["edges"])[0])["node"])["id"])

	// A swap halfway through the period invoices the proration at once
	// (2500 − 1000) and logs the change.
	f.env.Clock.Set(start.Add(end.Sub(start) / 2))
	bigger := monthlyProduct(f, 5000, "monthly")
	g = gql(t, f.sk, `mutation($s: ID!, $p: ID!) { updateSubscription(id: $s, input: {product: $p}) {
		productId status effectiveAmount latestInvoice { billingReason }
		invoices(first: 1) { edges { node { total status billingReason lineItems { kind amount proportion } } } }
		changeLogs { edges { node { id subscriptionId subscription { id } prorationBehavior previousProductId previousProduct { id }
			newProductId newProduct { id } previousPlan { amount } currentPlan { amount } effectiveDate } } } } }`,
		map[string]any{"s": subID, "p": bigger})
	swapped := obj(g.Data["updateSubscription"])
	require.Equal(t, bigger, swapped["productId"])
	require.Equal(t, float64(5000), swapped["effectiveAmount"])
	require.Equal(t, "SUBSCRIPTION_CREATE", obj(swapped["latestInvoice"])["billingReason"], "the period's invoice")
	latest := obj(obj(list(obj(swapped["invoices"])["edges"])[0])["node"])
	require.Equal(t, "SUBSCRIPTION_UPDATE", latest["billingReason"])
	require.Equal(t, "PAID", latest["status"])
	require.Equal(t, float64(1500), latest["total"])
	kinds := map[string]any{}
	for _, l := range list(latest["lineItems"]) {
		kinds[str(obj(l)["kind"])] = obj(l)["amount"]
		require.NotNil(t, obj(l)["proportion"])
	}
	require.Equal(t, map[string]any{"PRORATION_CREDIT": float64(-1000), "PRORATION_CHARGE": float64(2500)}, kinds)
	logs := list(obj(swapped["changeLogs"])["edges"])
	require.Len(t, logs, 1)
	entry := obj(obj(logs[0])["node"])
	require.Equal(t, subID, entry["subscriptionId"])
	require.Equal(t, subID, obj(entry["subscription"])["id"])
	require.Equal(t, "ALWAYS_INVOICE", entry["prorationBehavior"])
	require.Equal(t, monthly, obj(entry["previousProduct"])["id"])
	require.Equal(t, bigger, obj(entry["newProduct"])["id"])
	require.Equal(t, float64(2000), obj(entry["previousPlan"])["amount"])
	require.Equal(t, float64(5000), obj(entry["currentPlan"])["amount"])
	g = gql(t, f.sk, `query($s: ID!) { subscriptionChangeLogs(filter: {subscription: $s}) { edges { node { id } } }
		subscription(id: $s) { invoices(first: 1) { edges { node { id billingReason } } pageInfo { hasNextPage endCursor } } } }`,
		map[string]any{"s": subID})
	require.Equal(t, entry["id"], obj(obj(list(obj(g.Data["subscriptionChangeLogs"])["edges"])[0])["node"])["id"])
	invs := obj(obj(g.Data["subscription"])["invoices"])
	require.Equal(t, "SUBSCRIPTION_UPDATE", obj(obj(list(invs["edges"])[0])["node"])["billingReason"])
	require.Equal(t, true, obj(invs["pageInfo"])["hasNextPage"])
	g = gql(t, f.sk, `query($s: ID!, $after: String) { subscription(id: $s) { invoices(first: 1, after: $after) {
		edges { node { billingReason } } pageInfo { hasNextPage } } } }`, map[string]any{"s": subID, "after": obj(invs["pageInfo"])["endCursor"]})
	invs = obj(obj(g.Data["subscription"])["invoices"])
	require.Equal(t, "SUBSCRIPTION_CREATE", obj(obj(list(invs["edges"])[0])["node"])["billingReason"])
	require.Equal(t, false, obj(invs["pageInfo"])["hasNextPage"])

	// An interval switch is queued as the scheduled change, and dropped.
	yearly := monthlyProduct(f, 20000, "yearly")
	g = gql(t, f.sk, `mutation($s: ID!, $p: ID!, $m: ID!) { updateSubscription(id: $s, input: {product: $p, defaultPaymentMethod: $m}) {
		productId defaultPaymentMethod { id } scheduledChange { id productId product { id } intervalSwitch effectiveDate created } currentPeriodEnd } }`,
		map[string]any{"s": subID, "p": yearly, "m": card.ID.String()})
	queued := obj(g.Data["updateSubscription"])
	require.Equal(t, bigger, queued["productId"], "the switch waits for the renewal")
	require.Equal(t, card.ID.String(), obj(queued["defaultPaymentMethod"])["id"])
	sc := obj(queued["scheduledChange"])
	require.Equal(t, yearly, sc["productId"])
	require.Equal(t, yearly, obj(sc["product"])["id"])
	require.Equal(t, true, sc["intervalSwitch"])
	require.Equal(t, queued["currentPeriodEnd"], sc["effectiveDate"])
	g = gql(t, f.sk, `mutation($s: ID!) { cancelSubscriptionScheduledChange(id: $s) { scheduledChange { id } } }`, map[string]any{"s": subID})
	require.Nil(t, obj(g.Data["cancelSubscriptionScheduledChange"])["scheduledChange"])
	_, e := gqlError(t, f.sk, `mutation($s: ID!) { cancelSubscriptionScheduledChange(id: $s) { id } }`, map[string]any{"s": subID})
	require.Equal(t, "invalid_state", code(e))

	// Pause until a date, resume, cancel.
	resumeAt := start.AddDate(0, 3, 0).Format(time.RFC3339)
	g = gql(t, f.sk, `mutation($s: ID!, $at: DateTime) { pauseSubscription(id: $s, input: {resumeAt: $at}) { status pausedAt resumeAt } }`,
		map[string]any{"s": subID, "at": resumeAt})
	paused := obj(g.Data["pauseSubscription"])
	require.Equal(t, "PAUSED", paused["status"])
	require.Equal(t, resumeAt, paused["resumeAt"])
	require.NotNil(t, paused["pausedAt"])
	g = gql(t, f.sk, `mutation($s: ID!) { resumeSubscription(id: $s) { status pausedAt resumeAt } }`, map[string]any{"s": subID})
	require.Equal(t, map[string]any{"status": "ACTIVE", "pausedAt": nil, "resumeAt": nil}, g.Data["resumeSubscription"])
	g = gql(t, f.sk, `mutation($s: ID!) { cancelSubscription(id: $s) { status canceledAt } }`, map[string]any{"s": subID})
	canceled := obj(g.Data["cancelSubscription"])
	require.Equal(t, "CANCELED", canceled["status"])
	require.NotNil(t, canceled["canceledAt"])
	_, e = gqlError(t, f.sk, `mutation($s: ID!) { resumeSubscription(id: $s) { id } }`, map[string]any{"s": subID})
	require.Equal(t, "invalid_state", code(e))

	// The search's filters.
	f.env.Clock.Advance(time.Hour)
	other := f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), monthly)).ID.String()
	search := `query($f: SubscriptionFilter) { subscriptions(filter: $f) { edges { node { id } } } }`
	ids := func(g map[string]any) (out []any) {
		for _, e := range list(obj(g["subscriptions"])["edges"]) {
			out = append(out, obj(obj(e)["node"])["id"])
		}
		return out
	}
	g = gql(t, f.sk, search, map[string]any{"f": map[string]any{"status": "CANCELED"}})
	require.Equal(t, []any{subID}, ids(g.Data))
	g = gql(t, f.sk, search, map[string]any{"f": map[string]any{"createdAfter": start.Add(time.Minute).Format(time.RFC3339)}})
	require.Equal(t, []any{other}, ids(g.Data))
	g = gql(t, f.sk, search, map[string]any{"f": map[string]any{"createdBefore": start.Add(time.Minute).Format(time.RFC3339),
		"customer": cu.ID.String()}})
	require.Equal(t, []any{subID}, ids(g.Data))
	g = gql(t, f.sk, search, nil)
	require.Equal(t, []any{other, subID}, ids(g.Data))

	// Validation is REST's: every field at once.
	_, e = gqlError(t, f.sk, createSubscription, map[string]any{"in": map[string]any{"customer": cu.ID.String(),
		"account": cu.ID.String(), "product": monthly, "currency": "usd"}})
	require.Equal(t, "validation_errors", code(e))
}

func TestSubscriptionsOfAnAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acctID := str(f.sk.CreateAccount(testenv.Individual())["id"])
	f.sk.CreateAccountCard(acctID, testenv.Visa)
	free := monthlyProduct(f, 0, "monthly")
	g := gql(t, f.sk, createSubscription, map[string]any{"in": map[string]any{"account": acctID, "product": free, "currency": "usd"}})
	sub := obj(g.Data["createSubscription"])
	require.Equal(t, acctID, sub["accountId"])
	require.Equal(t, acctID, obj(sub["account"])["id"])
	require.Nil(t, sub["customer"])
	g = gql(t, f.sk, `query($a: ID!) { account(id: $a) { subscriptions { edges { node { id account { id } } } } } }`,
		map[string]any{"a": acctID})
	edges := list(obj(obj(g.Data["account"])["subscriptions"])["edges"])
	require.Len(t, edges, 1)
	require.Equal(t, sub["id"], obj(obj(edges[0])["node"])["id"])
}

func TestSubscriptionsOfAPageOfCustomersCostAStatementPerLevel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	monthly, bigger := monthlyProduct(f, 2000, "monthly"), monthlyProduct(f, 3000, "monthly")
	subscribe := func(customer string) string {
		return f.sk.CreateSubscription(testenv.Subscription(customer, monthly)).ID.String()
	}
	var customers []string
	for range 3 {
		cu := f.sk.CreateCustomer(testenv.Customer())
		f.sk.CreateCard(cu.ID.String(), testenv.Visa)
		customers = append(customers, cu.ID.String())
		f.env.Clock.Advance(time.Minute)
	}
	// The oldest customer has two subscriptions, one swapped twice.
	swapped := subscribe(customers[0])
	subscribe(customers[0])
	for _, p := range []string{bigger, monthly} {
		gql(t, f.sk, `mutation($s: ID!, $p: ID!) { updateSubscription(id: $s, input: {product: $p}) { id } }`,
			map[string]any{"s": swapped, "p": p})
	}
	subscribe(customers[1])
	subscribe(customers[2])

	query := `query($first: Int) { customers(first: $first) { edges { node { id
		subscriptions(first: 5) { edges { node { id status
			product { id name }
			latestInvoice { id total status }
			phases { id ordinal }
			changeLogs { edges { node { id previousProductId newProductId } } } } } } } } } }`
	one := gql(t, f.sk, query, map[string]any{"first": 1})
	all := gql(t, f.sk, query, map[string]any{"first": 10})
	// credential, the customers, their subscriptions (with their phases),
	// the products, the latest invoices, the change logs.
	require.Equal(t, 6, all.Statements, string(all.Raw))
	require.Equal(t, one.Statements, all.Statements)

	pages := list(obj(all.Data["customers"])["edges"])
	require.Len(t, pages, 3)
	oldest := list(obj(obj(obj(pages[2])["node"])["subscriptions"])["edges"])
	require.Len(t, oldest, 2)
	byID := map[any]map[string]any{}
	for _, e := range oldest {
		n := obj(obj(e)["node"])
		byID[n["id"]] = n
		require.Equal(t, monthly, obj(n["product"])["id"])
		require.Equal(t, "PAID", obj(n["latestInvoice"])["status"])
	}
	require.Len(t, list(obj(byID[swapped]["changeLogs"])["edges"]), 2)
}

func TestSubscriptionsOfAnotherTenantAreMissing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	subID := f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), monthlyProduct(f, 2000, "monthly"))).ID.String()

	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "other"})
	for _, c := range []*testenv.Client{f.env.Client(keys.Sandbox.Secret), f.live} {
		g := gql(t, c, `query($s: ID!) { node(id: $s) { id } }`, map[string]any{"s": subID})
		require.Equal(t, map[string]any{"node": nil}, g.Data)
		g, e := gqlError(t, c, `query($s: ID!) { subscription(id: $s) { id } }`, map[string]any{"s": subID})
		require.Equal(t, map[string]any{"subscription": nil}, g.Data)
		require.Equal(t, "resource_missing", code(e))
		_, e = gqlError(t, c, `mutation($s: ID!) { cancelSubscription(id: $s) { id } }`, map[string]any{"s": subID})
		require.Equal(t, "resource_missing", code(e))
		g = gql(t, c, `{ subscriptions { edges { node { id } } } }`, nil)
		require.Empty(t, list(obj(g.Data["subscriptions"])["edges"]))
	}
	g := gql(t, f.sk, `query($s: ID!) { subscription(id: $s) { status } }`, map[string]any{"s": subID})
	require.Equal(t, "ACTIVE", obj(g.Data["subscription"])["status"], "the owner's is untouched")
}
