package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestPaymentMethodFlowGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	// A publishable key creates the card, the secret key attaches it.
	g := gql(t, f.pk, `mutation { createPaymentMethod(input: {type: CARD, cardNumber: "4000056655665556",
		expMonth: 12, expYear: 30, cvc: "123"}) { id type status card { brand lastFour expMonth expYear instantAvailable } } }`, nil)
	pm := obj(g.Data["createPaymentMethod"])
	require.Equal(t, map[string]any{"brand": "visa", "lastFour": "5556", "expMonth": "12", "expYear": "2030",
		"instantAvailable": true}, pm["card"])
	require.NotContains(t, string(g.Raw), "4000056655665556")

	_, e := gqlError(t, f.sk, `mutation { createPaymentMethod(input: {type: CARD, cardNumber: "4012888888881881",
		expMonth: 12, expYear: 30, cvc: "123"}) { id } }`, nil)
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, map[string]any{"card_number": []any{"Card submitted is not a test card"}}, e.Extensions["errors"])

	g = gql(t, f.sk, `mutation($id: ID!, $c: ID!) { attachPaymentMethod(id: $id, input: {customer: $c}) {
		customerId customer { id paymentMethods { id } } } }`, map[string]any{"id": pm["id"], "c": c.ID.String()})
	att := obj(g.Data["attachPaymentMethod"])
	require.Equal(t, c.ID.String(), att["customerId"])
	require.Equal(t, []any{map[string]any{"id": pm["id"]}}, obj(att["customer"])["paymentMethods"])

	g = gql(t, f.sk, `mutation($id: ID!) { updatePaymentMethod(id: $id, input: {expMonth: 3, expYear: 2031}) { card { expMonth expYear } } }`,
		map[string]any{"id": pm["id"]})
	require.Equal(t, map[string]any{"expMonth": "03", "expYear": "2031"}, obj(g.Data["updatePaymentMethod"])["card"])

	g = gql(t, f.sk, `mutation($id: ID!) { detachPaymentMethod(id: $id) { status } }`, map[string]any{"id": pm["id"]})
	require.Equal(t, "DETACHED", obj(g.Data["detachPaymentMethod"])["status"])

	a := f.sk.CreateAccount(testenv.Individual())
	g = gql(t, f.sk, `mutation($a: ID!) { connectBankAccount(input: {account: $a, publicToken: "sandbox-token-110000000-000123456789"}) {
		type ach { bankName lastFour accountType } account { id } } }`, map[string]any{"a": a["id"]})
	bank := obj(g.Data["connectBankAccount"])
	require.Equal(t, map[string]any{"bankName": "Sandbox Test Bank", "lastFour": "6789", "accountType": "CHECKING"}, bank["ach"])
	require.Equal(t, a["id"], obj(bank["account"])["id"])
}

func TestPaymentMethodEdgesStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for i := 0; i < 3; i++ {
		a := f.sk.CreateAccount(testenv.Individual())
		f.sk.CreateAccountCard(str(a["id"]), testenv.Visa)
		c := f.sk.CreateCustomer(testenv.Customer())
		f.sk.CreateCard(c.ID.String(), testenv.Visa)
	}
	accounts := `query($first: Int) { accounts(first: $first) { edges { node { id paymentMethods { id account { id } } } } } }`
	small := gql(t, f.sk, accounts, map[string]any{"first": 1})
	big := gql(t, f.sk, accounts, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["accounts"])["edges"]), 3)
	require.Equal(t, small.Statements, big.Statements)
	require.Equal(t, 3, big.Statements, "the credential, the accounts, their payment methods in one batch")

	methods := `query($first: Int) { paymentMethods(first: $first) { edges { node { id customer { id email } account { id } } } } }`
	small = gql(t, f.sk, methods, map[string]any{"first": 1})
	big = gql(t, f.sk, methods, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["paymentMethods"])["edges"]), 6)
	require.Equal(t, 4, big.Statements, "the credential, the page, the customers in one batch, the accounts in one batch")
	require.Equal(t, 3, small.Statements, "the newest method is a customer's card: no account to load")
}

// merge returns base with members replaced.
func merge(base, members map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range members {
		out[k] = v
	}
	return out
}

func TestBlockAndUnblockPaymentMethodGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	pm := f.sk.CreateCard(c.ID.String(), testenv.Visa)
	vars := map[string]any{"id": pm.ID.String()}

	g := gql(t, f.sk, `mutation($id: ID!) { blockPaymentMethod(id: $id) { id status } }`, vars)
	require.Equal(t, "BLOCKED", obj(g.Data["blockPaymentMethod"])["status"])
	g = gql(t, f.sk, `mutation($id: ID!) { unblockPaymentMethod(id: $id) { status } }`, vars)
	require.Equal(t, "ACTIVE", obj(g.Data["unblockPaymentMethod"])["status"])

	// The customer's block holds it: unblocking it alone is refused.
	f.sk.BlockCustomer(c.ID.String())
	_, e := gqlError(t, f.sk, `mutation($id: ID!) { unblockPaymentMethod(id: $id) { status } }`, vars)
	require.Equal(t, "invalid_state", code(e))
	_, e = gqlError(t, f.pk, `mutation($id: ID!) { blockPaymentMethod(id: $id) { status } }`, vars)
	require.Equal(t, "forbidden", code(e))
}
