package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const createIntentMutation = `mutation($input: CreateChargeIntentInput!) { createChargeIntent(input: $input) {
	id status amount currency clientSecret authorizationMode customerId customer { id email }
	paymentMethod { id customerId } latestCharge { id status netAmount chargeIntent { id } }
	amountCaptured amountVoided referenceId metadata } }`

func TestChargeIntentsInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	input := map[string]any{"amount": 1000, "currency": "USD", "authorizationMode": "MANUAL", "confirm": true,
		"referenceId": "ord_9", "metadata": map[string]any{"order": "9"},
		"customerData":      map[string]any{"name": "Ada Lovelace", "email": "ada@example.com"},
		"paymentMethodData": map[string]any{"type": "CARD", "cardNumber": "4242424242424242", "expMonth": 12, "expYear": 30, "cvc": "123", "attach": true}}
	first := f.sk.GraphQLWithHeader(createIntentMutation, map[string]any{"input": input}, idemKey("gql-ci"))
	require.Empty(t, first.Errors, string(first.Raw))
	ci := obj(first.Data["createChargeIntent"])
	require.Equal(t, "REQUIRES_CAPTURE", ci["status"])
	require.Equal(t, "MANUAL", ci["authorizationMode"])
	require.Equal(t, "USD", ci["currency"])
	require.Regexp(t, `^ci_`, ci["clientSecret"])
	require.Equal(t, "ada@example.com", obj(ci["customer"])["email"])
	require.Equal(t, ci["customerId"], obj(ci["paymentMethod"])["customerId"])
	require.Equal(t, "SUCCEEDED", obj(ci["latestCharge"])["status"])
	require.Equal(t, ci["id"], obj(obj(ci["latestCharge"])["chargeIntent"])["id"])
	require.Equal(t, "ord_9", ci["referenceId"])

	// The key replays the mutation: the same intent, nothing charged twice.
	again := f.sk.GraphQLWithHeader(createIntentMutation, map[string]any{"input": input}, idemKey("gql-ci"))
	require.Empty(t, again.Errors, string(again.Raw))
	require.Equal(t, ci["id"], obj(again.Data["createChargeIntent"])["id"])

	g := gql(t, f.sk, `mutation($id: ID!) { captureChargeIntent(id: $id, input: {amountCapturedCents: 600}) {
		status amountCaptured latestCharge { amountCaptured netAmount } } }`, map[string]any{"id": ci["id"]})
	require.Equal(t, map[string]any{"status": "REQUIRES_CAPTURE", "amountCaptured": float64(600),
		"latestCharge": map[string]any{"amountCaptured": float64(600), "netAmount": float64(553)}}, g.Data["captureChargeIntent"])
	g = gql(t, f.sk, `mutation($id: ID!) { voidRemainingChargeIntent(id: $id) { status amountCaptured amountVoided } }`,
		map[string]any{"id": ci["id"]})
	require.Equal(t, map[string]any{"status": "SUCCEEDED", "amountCaptured": float64(600), "amountVoided": float64(400)},
		g.Data["voidRemainingChargeIntent"])
	g = gql(t, f.sk, `mutation($id: ID!) { updateChargeIntent(id: $id, input: {description: "Paid", metadata: {note: "x"}}) {
		description metadata } }`, map[string]any{"id": ci["id"]})
	require.Equal(t, map[string]any{"description": "Paid", "metadata": map[string]any{"order": "9", "note": "x"}},
		g.Data["updateChargeIntent"])
	_, e := gqlError(t, f.sk, `mutation($id: ID!) { cancelChargeIntent(id: $id) { id } }`, map[string]any{"id": ci["id"]})
	require.Equal(t, "invalid_state", code(e))

	// Confirm, cancel and the sandbox's 3-D Secure helper.
	acct := f.sk.CreateAccount(testenv.Individual())
	challenged := f.sk.CreateAccountCard(str(acct["id"]), "4000000000003220")
	g = gql(t, f.sk, `mutation($a: ID!) { createChargeIntent(input: {amount: 700, currency: "usd", account: $a}) { id status } }`,
		map[string]any{"a": acct["id"]})
	waiting := obj(g.Data["createChargeIntent"])
	require.Equal(t, "REQUIRES_PAYMENT_METHOD", waiting["status"])
	g = gql(t, f.sk, `mutation($id: ID!, $pm: ID!) { confirmChargeIntent(id: $id, input: {paymentMethod: $pm}) { status } }`,
		map[string]any{"id": waiting["id"], "pm": challenged.ID.String()})
	require.Equal(t, "REQUIRES_3D_SECURE", obj(g.Data["confirmChargeIntent"])["status"])
	g = gql(t, f.sk, `mutation($id: ID!) { completeChargeIntentThreeDSecure(id: $id) { status amountCaptured account { id } } }`,
		map[string]any{"id": waiting["id"]})
	require.Equal(t, map[string]any{"status": "SUCCEEDED", "amountCaptured": float64(700),
		"account": map[string]any{"id": acct["id"]}}, g.Data["completeChargeIntentThreeDSecure"])
	g = gql(t, f.sk, `mutation { createChargeIntent(input: {amount: 100, currency: "usd"}) { id } }`, nil)
	g = gql(t, f.sk, `mutation($id: ID!) { cancelChargeIntent(id: $id) { status } }`,
		map[string]any{"id": obj(g.Data["createChargeIntent"])["id"]})
	require.Equal(t, "CANCELED", obj(g.Data["cancelChargeIntent"])["status"])
	_, e = gqlError(t, f.sk, `mutation { createChargeIntent(input: {amount: 0, currency: "usd", customer: "x"}) { id } }`, nil)
	require.Equal(t, "validation_errors", code(e))

	// A page with every edge is a constant number of statements: the
	// credential, the page (with payment methods and charges), customers,
	// accounts; the edges come from the loaders the page primed.
	for i := range 4 {
		payer := map[string]any{"account": acct["id"]}
		if i%2 == 0 {
			payer = map[string]any{"customer": ci["customerId"]}
		}
		f.sk.CreateChargeIntent(merge(map[string]any{"amount": 300, "currency": "usd", "confirm": true,
			"payment_method_data": testenv.CardData("5555555555554444")}, payer))
	}
	query := `query($first: Int) { chargeIntents(first: $first) { edges { node { id status
		customer { id } account { id } paymentMethod { id } latestCharge { id chargeIntent { id } } } } pageInfo { hasNextPage } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 2})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["chargeIntents"])["edges"]), 7)
	require.Equal(t, small.Statements, big.Statements)
	require.Equal(t, 4, big.Statements)
	for _, e := range list(obj(big.Data["chargeIntents"])["edges"]) {
		n := obj(obj(e)["node"])
		if ch, ok := n["latestCharge"].(map[string]any); ok {
			require.Equal(t, n["id"], obj(ch["chargeIntent"])["id"])
		}
	}
	g = gql(t, f.sk, `query($id: ID!) { chargeIntent(id: $id) { id amount } node(id: $id) { ... on ChargeIntent { status } } }`,
		map[string]any{"id": ci["id"]})
	require.Equal(t, float64(1000), obj(g.Data["chargeIntent"])["amount"])
	require.Equal(t, "SUCCEEDED", obj(g.Data["node"])["status"])
	g = gql(t, f.sk, `query { chargeIntents(filter: {q: "ord_9"}) { edges { node { id } } } }`, nil)
	require.Len(t, list(obj(g.Data["chargeIntents"])["edges"]), 1)

	_, e = gqlError(t, f.pk, `query { chargeIntents { edges { node { id } } } }`, nil)
	require.Equal(t, "forbidden", code(e))
}
