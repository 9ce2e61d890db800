package graph_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// insertSubscriptionRow writes an active subscription of a customer and a
// recurring product made through the API straight into the table
// (subscriptions are made elsewhere; their phases only need the row), and
// returns its id.
func insertSubscriptionRow(t *testing.T, f *fixture) string {
	t.Helper()
	customer := f.sk.CreateCustomer(testenv.Customer())
	product := f.sk.CreateProduct(testenv.Product())
	sid := uuid.Must(uuid.NewV7())
	now := f.env.Clock.Now()
	_, err := f.env.DB.Bun.ExecContext(context.Background(), `INSERT INTO subscriptions (merchant_id, id, livemode, status,
		customer_id, product_id, currency, proration_behavior, anchor, created, updated)
		VALUES (?, ?, false, 'active', ?, ?, 'usd', 'create_prorations', ?, ?, ?)`,
		f.env.Merchant.ID, sid, customer.ID, product.ID, now, now, now)
	require.NoError(t, err)
	return sid.String()
}

func TestSubscriptionPhasesGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f)
	vars := map[string]any{"s": sub}

	create := `mutation($s: ID!) {
		a: createSubscriptionPhase(subscriptionId: $s, input: {ordinal: 1, pricingType: STATIC, amountCents: 900, periodCount: 2}) { id }
		b: createSubscriptionPhase(subscriptionId: $s, input: {ordinal: 2, pricingType: RELATIVE, discountPercentage: "15", durationType: INFINITE}) {
			id discountPercentage periodCount phaseableType subscriptionId startedAt currency } }`
	g := f.sk.GraphQLWithHeader(create, vars, idemKey("phases"))
	require.Empty(t, g.Errors, string(g.Raw))
	b := obj(g.Data["b"])
	require.Equal(t, "15.00", b["discountPercentage"])
	require.Nil(t, b["periodCount"])
	require.Equal(t, "Subscription", b["phaseableType"])
	require.Equal(t, sub, b["subscriptionId"])
	require.Nil(t, b["startedAt"])
	require.Equal(t, "USD", b["currency"])
	a := str(obj(g.Data["a"])["id"])

	// The Idempotency-Key replays the mutations as REST does.
	again := f.sk.GraphQLWithHeader(create, vars, idemKey("phases"))
	require.Empty(t, again.Errors, string(again.Raw))
	require.Equal(t, g.Data, again.Data)

	// The ordering rules hold over GraphQL as over REST.
	_, e := gqlError(t, f.sk, `mutation($s: ID!) { createSubscriptionPhase(subscriptionId: $s, input: {ordinal: 3, pricingType: STATIC, amountCents: 1}) { id } }`, vars)
	require.Equal(t, "validation_errors", code(e))

	g = gql(t, f.sk, `mutation($s: ID!, $a: ID!) { updateSubscriptionPhase(subscriptionId: $s, id: $a, input: {ordinal: 0, name: "Intro"}) { ordinal name } }`,
		map[string]any{"s": sub, "a": a})
	require.Equal(t, map[string]any{"ordinal": float64(0), "name": "Intro"}, g.Data["updateSubscriptionPhase"])

	g = gql(t, f.sk, `mutation($s: ID!, $a: ID!) { bulkUpdateSubscriptionPhases(subscriptionId: $s, phases: [{id: $a, periodCount: 4}]) {
		updatedCount phases { ordinal periodCount } } }`, map[string]any{"s": sub, "a": a})
	res := obj(g.Data["bulkUpdateSubscriptionPhases"])
	require.Equal(t, float64(1), res["updatedCount"])
	require.Equal(t, float64(4), obj(list(res["phases"])[0])["periodCount"])

	g = gql(t, f.sk, `query($s: ID!, $a: ID!) { subscriptionPhases(subscriptionId: $s) { id ordinal } node(id: $a) { ... on SubscriptionPhase { name } } }`,
		map[string]any{"s": sub, "a": a})
	require.Len(t, list(g.Data["subscriptionPhases"]), 2)
	require.Equal(t, "Intro", obj(g.Data["node"])["name"])

	g = gql(t, f.sk, `mutation($s: ID!, $a: ID!) { deleteSubscriptionPhase(subscriptionId: $s, id: $a) }`, map[string]any{"s": sub, "a": a})
	require.Equal(t, true, g.Data["deleteSubscriptionPhase"])
	// REST sees the same phases.
	require.Len(t, f.sk.Get("/v1/subscriptions/" + sub + "/phases").JSON()["phases"], 1)

	// Another mode's (or an unknown) subscription is missing.
	_, e = gqlError(t, f.live, `query($s: ID!) { subscriptionPhases(subscriptionId: $s) { id } }`, vars)
	require.Equal(t, "resource_missing", code(e))
}
