package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The publishable key is public: someone who learnt a customer's or an
// account's id must not plant their own card or bank account on it. A
// publishable key creates payment methods unattached and is refused (403,
// naming the member) when it names an owner, on REST, GraphQL and the
// bank link alike; the secret key attaches.
func TestPublishableKeyCannotAttachPaymentMethods(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	a := f.sk.CreateAccount(testenv.Individual())

	e := requireError(t, f.pk.Post("/v1/payment_methods", testenv.CardBody(id(c), testenv.Visa)),
		http.StatusForbidden, "forbidden", "customer")
	require.Contains(t, e["message"], "unattached")
	requireError(t, f.pk.Post("/v1/payment_methods", merge(testenv.CardBody("", testenv.Visa), map[string]any{"account": id(a)})),
		http.StatusForbidden, "forbidden", "account")
	requireError(t, f.pk.Post("/v1/payment_methods/connect_plaid", map[string]any{"account": id(a),
		"public_token": "sandbox-token-110000000-000222222227"}), http.StatusForbidden, "forbidden", "account")
	gql := f.pk.Do(http.MethodPost, "/graphql", map[string]any{
		"query":     `mutation($in: CreatePaymentMethodInput!) { createPaymentMethod(input: $in) { id } }`,
		"variables": map[string]any{"in": map[string]any{"type": "CARD", "customer": id(c), "cardNumber": testenv.Visa, "expMonth": 12, "expYear": 40, "cvc": "123"}}}, nil)
	require.Contains(t, string(gql.Body), `"code":"forbidden"`, string(gql.Body))

	// Nothing was planted.
	require.Empty(t, listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods?include_wallets=1"))
	require.Empty(t, listOf(t, f.sk, "/v1/payment_methods?include_wallets=1"))

	// Unattached, then attached by the server with the secret key; the
	// publishable key may not attach either.
	r := f.pk.Post("/v1/payment_methods", testenv.CardBody("", testenv.Visa))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pm := r.JSON()
	require.Nil(t, pm["customer_id"])
	require.Nil(t, pm["account_id"])
	requireError(t, f.pk.Post("/v1/payment_methods/"+id(pm)+"/attach", map[string]any{"customer": id(c)}),
		http.StatusForbidden, "forbidden", "")
	r = f.sk.Post("/v1/payment_methods/"+id(pm)+"/attach", map[string]any{"customer": id(c)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(c), r.JSON()["customer_id"])
}
