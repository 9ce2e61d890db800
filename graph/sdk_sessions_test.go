package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's sessions through GraphQL: the REST rules, the edges to their
// charge intent and customer, node refetch.
func TestSDKSessionsGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	for _, kind := range []string{"ChargeSession", "SonarSession"} {
		g := gql(t, f.sk, `mutation { create`+kind+`(input: {metadata: {order: "1"}}) { id status chargeIntentId metadata livemode } }`, nil)
		s := obj(g.Data["create"+kind])
		require.Equal(t, "OPEN", s["status"], kind)
		require.Nil(t, s["chargeIntentId"])
		require.Equal(t, map[string]any{"order": "1"}, s["metadata"])
		g = gql(t, f.sk, `mutation($id: ID!) { update`+kind+`(id: $id, input: {status: CANCELED}) { status } }`,
			map[string]any{"id": s["id"]})
		require.Equal(t, map[string]any{"status": "CANCELED"}, g.Data["update"+kind])
		_, e := gqlError(t, f.sk, `mutation($id: ID!) { update`+kind+`(id: $id, input: {status: COMPLETED}) { status } }`,
			map[string]any{"id": s["id"]})
		require.Equal(t, "invalid_state", code(e))
		_, e = gqlError(t, f.live, `mutation { create`+kind+`(input: {}) { id } }`, nil)
		require.Equal(t, "provider_not_configured", code(e))
		g = gql(t, f.sk, `query($id: ID!) { node(id: $id) { ... on `+kind+` { id status chargeIntent { id } } } }`,
			map[string]any{"id": s["id"]})
		require.Equal(t, map[string]any{"id": s["id"], "status": "CANCELED", "chargeIntent": nil}, g.Data["node"])
	}

	g := gql(t, f.sk, `mutation($c: ID!) { createPaymentLinkSession(input: {amount: 1500, customerId: $c}) {
		id url status amount currency customerId } }`, map[string]any{"c": cust.ID.String()})
	s := obj(g.Data["createPaymentLinkSession"])
	require.Equal(t, "open", s["status"])
	require.Equal(t, "USD", s["currency"])
	require.Regexp(t, `^https://pay\.frame\.test/link/`, s["url"])
	g = gql(t, f.sk, `query($id: ID!) { paymentLinkSession(id: $id) { url amount customer { id } } }`, map[string]any{"id": s["id"]})
	require.Equal(t, map[string]any{"url": s["url"], "amount": float64(1500), "customer": map[string]any{"id": cust.ID.String()}},
		g.Data["paymentLinkSession"])
}
