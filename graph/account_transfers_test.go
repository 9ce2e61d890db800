package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Account.transfers is a connection with the transfer list's filter, read
// for a whole page of accounts in one statement per set of arguments: the
// statement count is the same for one account or many, and each alias
// asking another page or filter adds one.
func TestAccountTransfersConnection(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	var accounts []string
	for range 3 {
		acct := f.sk.CreateAccount(testenv.Individual())
		id := str(acct["id"])
		pm := f.sk.CreateAccountCard(id, "4242424242424242")
		for range 3 {
			f.sk.CreateTransfer(testenv.Charge(id, pm.ID.String(), 1000))
		}
		accounts = append(accounts, id)
	}

	const one = `query($first: Int) { accounts(first: $first) { edges { node { id
		transfers(first: 2) { edges { cursor node { id amount account { id } } } pageInfo { hasNextPage endCursor } } } } } }`
	small := gql(t, f.sk, one, map[string]any{"first": 1})
	big := gql(t, f.sk, one, map[string]any{"first": 100})
	require.Equal(t, small.Statements, big.Statements)
	// The credential, the page of accounts with their capabilities, the
	// transfers' pages (the accounts of the transfers are the page's).
	require.Equal(t, 3, big.Statements)
	edges := list(obj(big.Data["accounts"])["edges"])
	require.Len(t, edges, 3)
	for _, e := range edges {
		acct := obj(obj(e)["node"])
		conn := obj(acct["transfers"])
		require.Len(t, list(conn["edges"]), 2)
		require.Equal(t, true, obj(conn["pageInfo"])["hasNextPage"])
		for _, te := range list(conn["edges"]) {
			require.Equal(t, acct["id"], obj(obj(obj(te)["node"])["account"])["id"])
		}
	}

	// The pages are REST's list of the account's transfers, newest first,
	// and the cursor leads to the rest.
	acct := accounts[0]
	rest := f.sk.Get("/v1/transfers?account_id=" + acct).JSON()["data"].([]any)
	require.Len(t, rest, 3)
	g := gql(t, f.sk, `query($id: ID!) { account(id: $id) { transfers(first: 2) { edges { node { id } } pageInfo { endCursor } } } }`,
		map[string]any{"id": acct})
	conn := obj(obj(g.Data["account"])["transfers"])
	got := []any{}
	for _, e := range list(conn["edges"]) {
		got = append(got, obj(obj(e)["node"])["id"])
	}
	g = gql(t, f.sk, `query($id: ID!, $after: String) { account(id: $id) { transfers(first: 2, after: $after) {
		edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } } }`,
		map[string]any{"id": acct, "after": obj(conn["pageInfo"])["endCursor"]})
	next := obj(obj(g.Data["account"])["transfers"])
	for _, e := range list(next["edges"]) {
		got = append(got, obj(obj(e)["node"])["id"])
	}
	require.Equal(t, map[string]any{"hasNextPage": false, "hasPreviousPage": true}, next["pageInfo"])
	want := []any{}
	for _, r := range rest {
		want = append(want, obj(r)["id"])
	}
	require.Equal(t, want, got)

	// REST's status filter, and aliases: one statement per set of
	// arguments, whatever the number of accounts.
	const aliased = `query($first: Int) { accounts(first: $first) { edges { node { id
		succeeded: transfers(first: 3, status: SUCCEEDED) { edges { node { id status } } }
		failed: transfers(first: 1, status: FAILED) { edges { node { id } } }
		again: transfers(first: 3, status: SUCCEEDED) { edges { node { id } } } } } } }`
	small = gql(t, f.sk, aliased, map[string]any{"first": 1})
	big = gql(t, f.sk, aliased, map[string]any{"first": 50})
	require.Equal(t, small.Statements, big.Statements)
	require.Equal(t, 4, big.Statements)
	for _, e := range list(obj(big.Data["accounts"])["edges"]) {
		n := obj(obj(e)["node"])
		require.Len(t, list(obj(n["succeeded"])["edges"]), 3)
		require.Empty(t, list(obj(n["failed"])["edges"]))
		require.Len(t, list(obj(n["again"])["edges"]), 3)
	}
}
