package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's sessions list as connections, filtered as REST filters them;
// a page with its charge intent and customer edges costs the same
// statements whatever its size.
func TestSDKSessionListsGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	intent := f.sk.CreateChargeIntent(map[string]any{"amount": 300, "currency": "usd"})
	cust := f.sk.CreateCustomer(testenv.Customer())
	for i := range 3 {
		body := map[string]any{}
		if i%2 == 0 {
			body["charge_intent_id"] = intent.ID.String()
		}
		f.sk.CreateChargeSession(body)
		f.sk.CreateSonarSession(body)
		link := map[string]any{"amount": 100 * (i + 1)}
		if i%2 == 0 {
			link["customer_id"] = cust.ID.String()
		}
		f.sk.CreatePaymentLinkSession(link)
	}

	// One family a query: each costs the credential, its page and its
	// edge's batch, whatever the page's size.
	queries := map[string]string{
		"chargeSessions": `query($first: Int) { chargeSessions(first: $first) {
			edges { cursor node { id chargeIntent { id } } } pageInfo { hasNextPage } } }`,
		"sonarSessions": `query($first: Int) { sonarSessions(first: $first) {
			edges { cursor node { id chargeIntent { id status } } } pageInfo { hasNextPage } } }`,
		"paymentLinkSessions": `query($first: Int) { paymentLinkSessions(first: $first) {
			edges { cursor node { id amount customer { id email } } } pageInfo { hasNextPage } } }`,
	}
	smalls := map[string]*testenv.GraphQLResponse{}
	for conn, query := range queries {
		small := gql(t, f.sk, query, map[string]any{"first": 1})
		big := gql(t, f.sk, query, map[string]any{"first": 100})
		require.Equal(t, true, obj(obj(small.Data[conn])["pageInfo"])["hasNextPage"], conn)
		require.Len(t, list(obj(big.Data[conn])["edges"]), 3, conn)
		require.Equal(t, small.Statements, big.Statements, conn)
		require.Equal(t, 3, big.Statements, conn)
		smalls[conn] = small
	}
	newest := obj(obj(list(obj(smalls["chargeSessions"].Data["chargeSessions"])["edges"])[0])["node"])
	require.Equal(t, intent.ID.String(), obj(newest["chargeIntent"])["id"])

	// Filters, and paging on from a cursor.
	g := gql(t, f.sk, `query($ci: ID, $c: ID) {
		chargeSessions(filter: {chargeIntent: $ci}) { edges { node { id } } }
		sonarSessions(filter: {chargeIntent: $ci}) { edges { node { id } } }
		paymentLinkSessions(filter: {customer: $c}) { edges { node { customerId } } } }`,
		map[string]any{"ci": intent.ID.String(), "c": cust.ID.String()})
	require.Len(t, list(obj(g.Data["chargeSessions"])["edges"]), 2)
	require.Len(t, list(obj(g.Data["sonarSessions"])["edges"]), 2)
	require.Len(t, list(obj(g.Data["paymentLinkSessions"])["edges"]), 2)
	cursor := obj(list(obj(smalls["chargeSessions"].Data["chargeSessions"])["edges"])[0])["cursor"]
	g = gql(t, f.sk, `query($after: String) { chargeSessions(first: 5, after: $after) { edges { node { id } } } }`,
		map[string]any{"after": cursor})
	require.Len(t, list(obj(g.Data["chargeSessions"])["edges"]), 2)
}
