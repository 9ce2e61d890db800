package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestBankAccountsThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("bank_account_verification").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}), "id")
	aid := str(acct["id"])
	g := gql(t, f.sk, `query($a: ID!) { plaidLinkToken(accountId: $a) }`, map[string]any{"a": aid})
	token := str(g.Data["plaidLinkToken"])
	g = gql(t, f.sk, `mutation($a: String!, $t: String!) { createBankAccount(input: {processor: "sandbox", processorToken: $t, accountId: $a}) {
		id accountNumberLast4 status account { id } } }`, map[string]any{"a": aid, "t": token})
	ba := obj(g.Data["createBankAccount"])
	require.Equal(t, "6789", ba["accountNumberLast4"])
	require.Equal(t, "VERIFIED", ba["status"])
	g = gql(t, f.sk, `query($a: ID!, $b: ID!) { bankAccount(id: $b) { id } account(id: $a) { status bankAccounts { id } } }`,
		map[string]any{"a": aid, "b": ba["id"]})
	require.Equal(t, ba["id"], obj(g.Data["bankAccount"])["id"])
	require.Equal(t, "ACTIVE", obj(g.Data["account"])["status"])
	require.Equal(t, []any{map[string]any{"id": ba["id"]}}, obj(g.Data["account"])["bankAccounts"])
}

func TestAccountBankAccountsLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ accounts(first: 50) { edges { node { id bankAccounts { id account { id } } } } } }`
	mk := func(n int) {
		for range n {
			a := f.sk.CreateAccount(testenv.Individual())
			for _, num := range []string{"000123456789", "000222222227"} {
				f.sk.CreateBankAccount(testenv.BankAccount(str(a["id"]), num))
			}
		}
	}
	mk(1)
	few := gql(t, f.sk, query, nil)
	mk(4)
	many := gql(t, f.sk, query, nil)
	require.Len(t, list(obj(many.Data["accounts"])["edges"]), 5)
	require.Equal(t, few.Statements, many.Statements)
	require.Equal(t, 3, many.Statements, "the credential, the page, every account's bank accounts in one batch")
}
