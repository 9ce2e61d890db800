package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestFeePlansAgreementsAndTransfersGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.sk, `mutation { createTransferFeePlan(input: {name: "Cards", feeApplicationMode: ADD_ON, items: [
		{feeType: FLAT_PLUS_PERCENTAGE, amountFixedCents: 30, amountPercentage: "2.9", billableEventType: TRANSFER_CHARGE_CARD}]}) {
		id feeApplicationMode items { feeType amountPercentage amountFixedCents amountFixedCurrency } } }`, nil)
	plan := obj(g.Data["createTransferFeePlan"])
	require.Equal(t, "ADD_ON", plan["feeApplicationMode"])
	require.Equal(t, []any{map[string]any{"feeType": "FLAT_PLUS_PERCENTAGE", "amountPercentage": "2.9",
		"amountFixedCents": float64(30), "amountFixedCurrency": "USD"}}, plan["items"])
	g = gql(t, f.sk, `mutation($p: ID!) { createBillingAgreement(input: {transferFeePlanId: $p, category: CHARGE,
		effectiveDate: "2024-01-01", status: ACTIVE}) { id status feePlan { id } } }`, map[string]any{"p": plan["id"]})
	ag := obj(g.Data["createBillingAgreement"])
	require.Equal(t, "ACTIVE", ag["status"])

	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	g = gql(t, f.sk, `mutation($a: ID!, $pm: ID!) { createTransfer(input: {amount: 1000, accountId: $a, sourcePaymentMethodId: $pm,
		confirm: true, authorizationMode: MANUAL, metadata: {order: "9"}}) { id status amount } }`,
		map[string]any{"a": acct["id"], "pm": pm.ID.String()})
	tr := obj(g.Data["createTransfer"])
	require.Equal(t, "REQUIRES_CAPTURE", tr["status"])
	g = gql(t, f.sk, `mutation($id: ID!) { captureTransfer(id: $id, input: {amountCapturedCents: 500}) {
		status amountCaptured totalFees grossAmount netAmount feeSource
		billingAgreement { id } transferFeePlan { id } account { id } sourcePaymentMethod { id }
		ledgerJournals { kind entries { party currency amount } } } }`, map[string]any{"id": tr["id"]})
	c := obj(g.Data["captureTransfer"])
	require.Equal(t, "SUCCEEDED", c["status"])
	require.Equal(t, "BILLING_AGREEMENT", c["feeSource"])
	require.Equal(t, float64(500), c["amountCaptured"])
	require.Equal(t, float64(45), c["totalFees"]) // 14.5 rounds up to 15, + 30
	require.Equal(t, float64(545), c["grossAmount"])
	require.Equal(t, float64(500), c["netAmount"])
	require.Equal(t, ag["id"], obj(c["billingAgreement"])["id"])
	require.Equal(t, acct["id"], obj(c["account"])["id"])
	journals := list(c["ledgerJournals"])
	require.Len(t, journals, 1)
	j := obj(journals[0])
	require.Equal(t, "CHARGE_CAPTURE", j["kind"])
	var sum float64
	for _, e := range list(j["entries"]) {
		sum += obj(e)["amount"].(float64)
	}
	require.Zero(t, sum, "the journal balances")

	g = gql(t, f.sk, `mutation($id: ID!) { updateTransfer(id: $id, input: {description: "Paid"}) { description metadata } }`,
		map[string]any{"id": tr["id"]})
	require.Equal(t, map[string]any{"description": "Paid", "metadata": map[string]any{"order": "9"}}, g.Data["updateTransfer"])
	challenged := f.sk.CreateAccountCard(str(acct["id"]), "4000000000003220")
	g = gql(t, f.sk, `mutation($a: ID!, $pm: ID!) { createTransfer(input: {amount: 700, accountId: $a, sourcePaymentMethodId: $pm,
		confirm: true}) { id status } }`, map[string]any{"a": acct["id"], "pm": challenged.ID.String()})
	require.Equal(t, "REQUIRES_3D_SECURE", obj(g.Data["createTransfer"])["status"])
	g = gql(t, f.sk, `mutation($id: ID!) { completeThreeDSecure(id: $id) { status amountCaptured } }`,
		map[string]any{"id": obj(g.Data["createTransfer"])["id"]})
	require.Equal(t, map[string]any{"status": "SUCCEEDED", "amountCaptured": float64(700)}, g.Data["completeThreeDSecure"])

	_, e := gqlError(t, f.sk, `mutation($id: ID!) { cancelTransfer(id: $id) { id } }`, map[string]any{"id": tr["id"]})
	require.Equal(t, "invalid_state", code(e))
	g = gql(t, f.sk, `mutation($a: ID!) { createCheckoutSession(input: {accountId: $a, amount: {value: 1500}}) {
		id clientSecret amount { value currency } authorizationMode account { id } } }`, map[string]any{"a": acct["id"]})
	cs := obj(g.Data["createCheckoutSession"])
	require.Regexp(t, `^chk_sess_`, cs["clientSecret"])
	require.Equal(t, "AUTOMATIC", cs["authorizationMode"], "the default, named as the enum")
	require.Equal(t, map[string]any{"value": float64(1500), "currency": "USD"}, cs["amount"])
	require.Equal(t, acct["id"], obj(cs["account"])["id"])
	g = gql(t, f.sk, `query($id: ID!) { node(id: $id) { ... on CheckoutSession { clientSecret amount { value } } } }`,
		map[string]any{"id": cs["id"]})
	require.Equal(t, map[string]any{"clientSecret": nil, "amount": map[string]any{"value": float64(1500)}}, g.Data["node"])

	_, e = gqlError(t, f.pk, `query { transfers { edges { node { id } } } }`, nil)
	require.Equal(t, "forbidden", code(e))
}

// A page of transfers with their plan, agreement, account, payment method
// and journals costs the same statements for one transfer or many.
func TestTransferConnectionStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	for range 3 {
		f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000))
	}
	query := `query($first: Int) { transfers(first: $first) { edges { node { id status
		transferFeePlan { id items { feeType } } billingAgreement { id feePlan { id } } account { id }
		sourcePaymentMethod { id card { lastFour } } ledgerJournals { kind entries { amount } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["transfers"])["edges"]), 3)
	require.Equal(t, small.Statements, big.Statements)
	// credential, page, plans, agreements, accounts, journals, entries.
	require.Equal(t, 7, big.Statements)
}
