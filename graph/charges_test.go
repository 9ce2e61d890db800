package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestChargesInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	for range 3 {
		f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000))
	}
	query := `query($first: Int) { transfers(first: $first) { edges { node { id charge {
		id status amountCaptured netAmount captured refunded paymentMethodDetails { id } account { id } transfer { id }
		ledgerJournals { kind entries { party amount } } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	edges := list(obj(big.Data["transfers"])["edges"])
	require.Len(t, edges, 3)
	for _, e := range edges {
		tr := obj(obj(e)["node"])
		ch := obj(tr["charge"])
		require.Equal(t, "SUCCEEDED", ch["status"])
		require.Equal(t, float64(1000), ch["amountCaptured"])
		require.Equal(t, float64(941), ch["netAmount"])
		require.Equal(t, true, ch["captured"])
		require.Equal(t, false, ch["refunded"])
		require.Equal(t, pm.ID.String(), obj(ch["paymentMethodDetails"])["id"])
		require.Equal(t, acct["id"], obj(ch["account"])["id"])
		require.Equal(t, tr["id"], obj(ch["transfer"])["id"])
		require.Len(t, list(ch["ledgerJournals"]), 1)
	}
	require.Equal(t, small.Statements, big.Statements)
	// credential, page, charges, accounts, journals, entries (the
	// transfers are primed by the page).
	require.Equal(t, 6, big.Statements)

	chID := obj(obj(obj(edges[0])["node"])["charge"])["id"]
	g := gql(t, f.sk, `query($id: ID!) { charge(id: $id) { id status } node(id: $id) { ... on Charge { id amount } } }`,
		map[string]any{"id": chID})
	require.Equal(t, chID, obj(g.Data["charge"])["id"])
	require.Equal(t, float64(1000), obj(g.Data["node"])["amount"])
}
