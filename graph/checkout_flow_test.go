package graph_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// checkoutSecret creates a checkout session for accountID over REST and
// returns a client holding its chk_sess_ secret.
func checkoutSecret(t *testing.T, f *fixture, accountID string, amount int64) *testenv.Client {
	t.Helper()
	s := f.sk.CreateCheckoutSession(testenv.CheckoutSession(accountID, amount))
	return f.env.Client(*s.ClientSecret)
}

const browserCreate = `mutation($pm: ID!, $amount: Int) { createTransfer(input: {source: {paymentMethodId: $pm}, amount: $amount, confirm: false}) {
	id status amount accountId sourcePaymentMethod { id type status card { lastFour } billing { id } accountId customerId } } }`

// The browser flow of spec doc 2 §4.8 through GraphQL under a checkout
// secret, with REST's rules: the session's amount and account, an
// Idempotency-Key replayed, redacted payment methods, its own transfers
// only.
func TestCheckoutFlowGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	card := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	chk := checkoutSecret(t, f, str(acct["id"]), 2500)

	key := http.Header{"Idempotency-Key": {"gql-browser-1"}}
	first := chk.GraphQLWithHeader(browserCreate, map[string]any{"pm": card.ID.String()}, key)
	require.Empty(t, first.Errors, string(first.Raw))
	again := chk.GraphQLWithHeader(browserCreate, map[string]any{"pm": card.ID.String()}, key)
	require.JSONEq(t, string(first.Raw), string(again.Raw), "a replay answers the same transfer")
	tr := obj(first.Data["createTransfer"])
	require.Equal(t, "REQUIRES_CONFIRMATION", tr["status"])
	require.Equal(t, float64(2500), tr["amount"])
	require.Equal(t, acct["id"], tr["accountId"])
	redacted := map[string]any{"id": card.ID.String(), "type": "CARD", "status": "ACTIVE", "card": nil, "billing": nil,
		"accountId": nil, "customerId": nil}
	require.Equal(t, redacted, tr["sourcePaymentMethod"])
	require.Len(t, list(obj(gql(t, f.sk, `query { transfers { edges { node { id } } } }`, nil).Data["transfers"])["edges"]), 1)

	g := gql(t, chk, `mutation($id: ID!) { confirmTransfer(id: $id) { id status amountCaptured nextAction { type }
		sourcePaymentMethod { id card { lastFour } } } }`, map[string]any{"id": tr["id"]})
	done := obj(g.Data["confirmTransfer"])
	require.Equal(t, "SUCCEEDED", done["status"])
	require.Equal(t, float64(2500), done["amountCaptured"])
	require.Nil(t, done["nextAction"])
	require.Equal(t, map[string]any{"id": card.ID.String(), "card": nil}, done["sourcePaymentMethod"])
	g = gql(t, chk, `query($id: ID!) { transfer(id: $id) { status sourcePaymentMethod { id card { lastFour } } } }`,
		map[string]any{"id": tr["id"]})
	require.Equal(t, map[string]any{"status": "SUCCEEDED", "sourcePaymentMethod": map[string]any{"id": card.ID.String(), "card": nil}},
		g.Data["transfer"])
	g = gql(t, f.sk, `query($id: ID!) { transfer(id: $id) { sourcePaymentMethod { card { lastFour } accountId } } }`,
		map[string]any{"id": tr["id"]})
	require.Equal(t, map[string]any{"card": map[string]any{"lastFour": "4242"}, "accountId": acct["id"]},
		obj(g.Data["transfer"])["sourcePaymentMethod"], "the secret key sees the whole method")

	// Refusals, as in REST.
	_, e := gqlError(t, chk, browserCreate, map[string]any{"pm": card.ID.String(), "amount": 2499})
	require.Equal(t, "validation_errors", code(e))
	require.Contains(t, e.Extensions["errors"], "amount")
	other := f.sk.CreateAccount(testenv.Individual())
	otherCard := f.sk.CreateAccountCard(str(other["id"]), "4242424242424242")
	_, e = gqlError(t, chk, browserCreate, map[string]any{"pm": otherCard.ID.String()})
	require.Equal(t, "validation_errors", code(e))
	require.Contains(t, e.Extensions["errors"], "source_payment_method_id")
	_, e = gqlError(t, chk, `mutation($id: ID!) { cancelTransfer(id: $id) { id } }`, map[string]any{"id": tr["id"]})
	require.Equal(t, "forbidden", code(e))
	_, e = gqlError(t, chk, `query { transfers { edges { node { id } } } }`, nil)
	require.Equal(t, "forbidden", code(e))
	foreign := f.sk.CreateTransfer(testenv.Charge(str(other["id"]), otherCard.ID.String(), 1000).WithoutConfirm()).ID.String()
	_, e = gqlError(t, chk, `mutation($id: ID!) { confirmTransfer(id: $id) { id } }`, map[string]any{"id": foreign})
	require.Equal(t, "resource_missing", code(e))
	g = chk.GraphQL(`query($id: ID!) { transfer(id: $id) { id } }`, map[string]any{"id": foreign})
	require.Nil(t, g.Data["transfer"])
	require.Equal(t, "resource_missing", code(g.Errors[0]))
	g = chk.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": foreign})
	require.Nil(t, g.Data["node"], "another session's transfer is no node")

	f.env.Clock.Advance(31 * time.Minute)
	g = chk.GraphQL(`query($id: ID!) { transfer(id: $id) { id } }`, map[string]any{"id": tr["id"]})
	require.Equal(t, http.StatusUnauthorized, g.Status, string(g.Raw))
}

// Under a checkout secret a decline is a GraphQL error carrying the
// decline code, and it is recorded; a challenge answers requires_3d_secure
// with the card to challenge.
func TestCheckoutDeclineAndChallengeGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	declining := f.sk.CreateAccountCard(str(acct["id"]), "4000000000009995")
	chk := checkoutSecret(t, f, str(acct["id"]), 1200)
	tr := obj(gql(t, chk, browserCreate, map[string]any{"pm": declining.ID.String()}).Data["createTransfer"])
	confirm := `mutation($id: ID!) { confirmTransfer(id: $id) { id status } }`
	key := http.Header{"Idempotency-Key": {"gql-decline-1"}}
	g := chk.GraphQLWithHeader(confirm, map[string]any{"id": tr["id"]}, key)
	require.Len(t, g.Errors, 1, string(g.Raw))
	e := g.Errors[0]
	require.Equal(t, "insufficient_funds", code(e))
	require.Equal(t, http.StatusPaymentRequired, status(e))
	require.Equal(t, "Your card has insufficient funds.", e.Message)
	require.Equal(t, map[string]any{"transfer_id": tr["id"]}, e.Extensions["details"])
	require.Nil(t, g.Data)
	replay := chk.GraphQLWithHeader(confirm, map[string]any{"id": tr["id"]}, key)
	require.Equal(t, "insufficient_funds", code(replay.Errors[0]), "the replay answers the same decline")
	got := f.sk.Get("/v1/transfers/" + str(tr["id"])).JSON()
	require.Equal(t, "failed", got["status"])
	require.Equal(t, "insufficient_funds", got["failure_code"])

	challenged := f.sk.CreateAccountCard(str(acct["id"]), "4000000000003220")
	chk = checkoutSecret(t, f, str(acct["id"]), 800)
	tr = obj(gql(t, chk, browserCreate, map[string]any{"pm": challenged.ID.String()}).Data["createTransfer"])
	g = gql(t, chk, `mutation($id: ID!) { confirmTransfer(id: $id) { status nextAction { type source } } }`,
		map[string]any{"id": tr["id"]})
	require.Equal(t, map[string]any{"status": "REQUIRES_3D_SECURE",
		"nextAction": map[string]any{"type": "USE_PLATFORM_SDK", "source": challenged.ID.String()}}, g.Data["confirmTransfer"])
}
