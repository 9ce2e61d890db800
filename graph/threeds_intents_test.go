package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestThreeDSIntentsGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cust := f.sk.CreateCustomer(testenv.Customer())
	card := f.sk.CreateCard(str(cust.ID.String()), "4000000000003220")
	g := gql(t, f.pk, `mutation($pm: ID!) { createThreeDSIntent(input: {paymentMethodId: $pm}) {
		id status challengeUrl completed customerId paymentMethodId livemode } }`, map[string]any{"pm": card.ID.String()})
	in := obj(g.Data["createThreeDSIntent"])
	require.Equal(t, "ISSUED", in["status"])
	require.Regexp(t, `^https://3ds\.frame\.test/challenge/`, in["challengeUrl"])
	require.Nil(t, in["completed"])
	require.Equal(t, cust.ID.String(), in["customerId"])
	require.Equal(t, card.ID.String(), in["paymentMethodId"])

	g = gql(t, f.pk, `mutation($id: ID!) { resendThreeDSIntent(id: $id) { status challengeUrl } }`, map[string]any{"id": in["id"]})
	require.NotEqual(t, in["challengeUrl"], obj(g.Data["resendThreeDSIntent"])["challengeUrl"])
	_, e := gqlError(t, f.pk, `mutation($id: ID!) { completeThreeDSIntent(id: $id) { status } }`, map[string]any{"id": in["id"]})
	require.Equal(t, "forbidden", code(e))
	g = gql(t, f.sk, `mutation($id: ID!) { completeThreeDSIntent(id: $id) { status challengeUrl completed } }`,
		map[string]any{"id": in["id"]})
	done := obj(g.Data["completeThreeDSIntent"])
	require.Equal(t, "VERIFIED", done["status"])
	require.Nil(t, done["challengeUrl"])
	require.NotNil(t, done["completed"])

	g = gql(t, f.sk, `query($id: ID!) { threeDSIntent(id: $id) { status customer { id } paymentMethod { id card { lastFour } } }
		node(id: $id) { ... on ThreeDSIntent { id } } }`, map[string]any{"id": in["id"]})
	require.Equal(t, map[string]any{"status": "VERIFIED", "customer": map[string]any{"id": cust.ID.String()},
		"paymentMethod": map[string]any{"id": card.ID.String(), "card": map[string]any{"lastFour": "3220"}}}, g.Data["threeDSIntent"])
	require.Equal(t, map[string]any{"id": in["id"]}, g.Data["node"])

	// The same not-found error for an unknown card and a busy one.
	f.pk.CreateThreeDSIntent(card.ID.String())
	_, busy := gqlError(t, f.pk, `mutation($pm: ID!) { createThreeDSIntent(input: {paymentMethodId: $pm}) { id } }`,
		map[string]any{"pm": card.ID.String()})
	_, unknown := gqlError(t, f.pk, `mutation($pm: ID!) { createThreeDSIntent(input: {paymentMethodId: $pm}) { id } }`,
		map[string]any{"pm": "0190a000-0000-7000-8000-000000000000"})
	require.Equal(t, "resource_missing", code(busy))
	require.Equal(t, busy.Message, unknown.Message)
	delete(busy.Extensions, "request_id")
	delete(unknown.Extensions, "request_id")
	require.Equal(t, busy.Extensions, unknown.Extensions)
}

// Intents with their cards and customers cost the same statements for
// one intent or several.
func TestThreeDSIntentStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var idList []any
	for range 3 {
		cust := f.sk.CreateCustomer(testenv.Customer())
		card := f.sk.CreateCard(str(cust.ID.String()), "4000000000003220")
		idList = append(idList, f.sk.CreateThreeDSIntent(card.ID.String()).ID.String())
	}
	query := `query($a: ID!, $b: ID!, $c: ID!) {
		a: threeDSIntent(id: $a) { status customer { id email } paymentMethod { id } }
		b: threeDSIntent(id: $b) { status customer { id email } paymentMethod { id } }
		c: threeDSIntent(id: $c) { status customer { id email } paymentMethod { id } } }`
	one := `query($a: ID!) { a: threeDSIntent(id: $a) { status customer { id email } paymentMethod { id } } }`
	big := gql(t, f.sk, query, map[string]any{"a": idList[0], "b": idList[1], "c": idList[2]})
	small := gql(t, f.sk, one, map[string]any{"a": idList[0]})
	require.Equal(t, small.Statements, big.Statements)
	// credential, intents, customers, payment methods.
	require.Equal(t, 4, big.Statements)
}
