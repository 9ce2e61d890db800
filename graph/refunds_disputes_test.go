package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestRefundsAndDisputesInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	charge := testenv.Charge(str(acct["id"]), pm.ID.String(), 1000)
	tr := f.sk.CreateTransfer(charge)

	// createRefund honours the Idempotency-Key.
	const refundMutation = `mutation($t: ID!) { createRefund(input: {transfer: $t, amount: 250, reason: DUPLICATE}) {
		id status amount currency reason chargeId transferId charge { id amountRefunded } transfer { id status } } }`
	vars := map[string]any{"t": tr.ID.String()}
	first := f.sk.GraphQLWithHeader(refundMutation, vars, idemKey("gql-refund"))
	require.Empty(t, first.Errors, string(first.Raw))
	again := f.sk.GraphQLWithHeader(refundMutation, vars, idemKey("gql-refund"))
	require.Equal(t, first.Data, again.Data)
	rf := obj(first.Data["createRefund"])
	require.Equal(t, "SUCCEEDED", rf["status"])
	require.Equal(t, float64(250), rf["amount"])
	require.Equal(t, "DUPLICATE", rf["reason"])
	require.Equal(t, tr.LatestCharge.String(), rf["chargeId"])
	require.Equal(t, float64(250), obj(rf["charge"])["amountRefunded"])
	_, e := gqlError(t, f.sk, `mutation($t: ID!) { createRefund(input: {transfer: $t, amount: 5000}) { id } }`, vars)
	require.Equal(t, "amount_too_large", code(e))

	// openSandboxDispute, then updateDispute submits winning evidence.
	g := gql(t, f.sk, `mutation($c: ID!) { openSandboxDispute(chargeId: $c, input: {reason: "duplicate"}) {
		id status displayStatus amountCents amountCurrency reason { code category } chargeId transfer { id } } }`,
		map[string]any{"c": tr.LatestCharge.String()})
	d := obj(g.Data["openSandboxDispute"])
	require.Equal(t, "NEEDS_RESPONSE", d["status"])
	require.Equal(t, float64(750), d["amountCents"])
	require.Equal(t, "USD", d["amountCurrency"])
	require.Equal(t, map[string]any{"code": "duplicate", "category": "PROCESSING_ERROR"}, d["reason"])
	g = gql(t, f.sk, `mutation($id: ID!) { updateDispute(id: $id, input: {evidence: {uncategorizedText: "winning_evidence",
		customerPurchaseIp: "203.0.113.9"}}) { status evidence { uncategorizedText customerPurchaseIp shippingTrackingNumber } } }`,
		map[string]any{"id": d["id"]})
	require.Equal(t, map[string]any{"status": "UNDER_REVIEW", "evidence": map[string]any{"uncategorizedText": "winning_evidence",
		"customerPurchaseIp": "203.0.113.9", "shippingTrackingNumber": nil}}, g.Data["updateDispute"])
	f.env.AwaitJobs(func() bool {
		g = gql(t, f.sk, `query($id: ID!) { dispute(id: $id) { status } node(id: $id) { ... on Dispute { displayStatus } } }`,
			map[string]any{"id": d["id"]})
		return obj(g.Data["dispute"])["status"] != "UNDER_REVIEW"
	})
	require.Equal(t, "WON", obj(g.Data["dispute"])["status"])
	require.Equal(t, "Won", obj(g.Data["node"])["displayStatus"])

	// A page of transfers with their refunds, disputes and charges costs
	// the same statements whatever its size.
	for range 3 {
		c := f.sk.CreateTransfer(charge)
		f.sk.CreateRefund(testenv.RefundOfTransfer(c.ID.String()).WithAmount(100))
		f.sk.CreateRefund(testenv.RefundOfTransfer(c.ID.String()).WithAmount(200))
		f.sk.OpenDispute(c.LatestCharge.String(), "")
	}
	query := `query($first: Int) { transfers(first: $first) { edges { node { id
		refunds { id amount charge { id } }
		disputes { id status evidence { uncategorizedText } charge { id } }
		charge { id refunds { id } disputes { id amountCents } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	edges := list(obj(big.Data["transfers"])["edges"])
	require.Len(t, edges, 4)
	for _, e := range edges {
		n := obj(obj(e)["node"])
		require.NotEmpty(t, list(n["refunds"]))
		require.Len(t, list(n["disputes"]), 1)
		ch := obj(n["charge"])
		require.Len(t, list(ch["refunds"]), len(list(n["refunds"])))
		require.Len(t, list(ch["disputes"]), 1)
		require.Equal(t, ch["id"], obj(obj(list(n["disputes"])[0])["charge"])["id"])
	}
	require.NotEmpty(t, small.Data)
	require.Equal(t, small.Statements, big.Statements)
	// credential, page, transfer refunds, transfer disputes, charges,
	// charge refunds, charge disputes.
	require.Equal(t, 7, big.Statements)

	// The lists, filtered, and the nodes.
	g = gql(t, f.sk, `query($t: ID!) { refunds(first: 10, filter: {transfer: $t}) { edges { node { id amount } } }
		disputes(first: 10) { edges { node { id } } pageInfo { hasNextPage } } }`, map[string]any{"t": tr.ID.String()})
	require.Len(t, list(obj(g.Data["refunds"])["edges"]), 1)
	require.Len(t, list(obj(g.Data["disputes"])["edges"]), 4)
	g = gql(t, f.sk, `query($id: ID!) { refund(id: $id) { id } node(id: $id) { ... on Refund { amount } } }`,
		map[string]any{"id": rf["id"]})
	require.Equal(t, float64(250), obj(g.Data["node"])["amount"])

	_, e = gqlError(t, f.pk, `query { refunds { edges { node { id } } } }`, nil)
	require.Equal(t, "forbidden", code(e))
	_, e = gqlError(t, f.sk, `mutation($id: ID!) { updateDispute(id: $id, input: {submit: true}) { id } }`, map[string]any{"id": d["id"]})
	require.Equal(t, "invalid_state", code(e))
}
