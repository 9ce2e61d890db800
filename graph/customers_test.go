package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const customerFields = `id name email phone description status dateOfBirth isDeleted
	paymentMethods { id type status customerId card { brand lastFour expMonth expYear } }
	billingAddress { id line1 city country type livemode }
	metadata livemode created updated`

func TestCustomerFlowGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	in := testenv.Customer().GraphQLInput()
	in["ssn"] = "123-45-6789"
	in["billingAddress"] = map[string]any{"line1": "1 Main St", "city": "Austin", "country": "us"}
	g := gql(t, f.sk, `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) {`+customerFields+`} }`,
		map[string]any{"input": in})
	c := obj(g.Data["createCustomer"])
	require.Equal(t, "Grace Hopper", c["name"])
	require.Equal(t, "+12005550101", c["phone"])
	require.Equal(t, "ACTIVE", c["status"])
	require.Equal(t, false, c["isDeleted"])
	require.Equal(t, "US", obj(c["billingAddress"])["country"])
	require.Equal(t, []any{}, c["paymentMethods"])
	require.NotContains(t, string(g.Raw), "6789")

	// The same object over REST.
	rest := f.sk.Get("/v1/customers/" + str(c["id"])).JSON()
	require.Equal(t, rest["email"], c["email"])

	g = gql(t, f.sk, `mutation($id: ID!) { blockCustomer(id: $id) { status } }`, map[string]any{"id": c["id"]})
	require.Equal(t, "BLOCKED", obj(g.Data["blockCustomer"])["status"])

	g = gql(t, f.sk, `mutation($id: ID!, $in: UpdateCustomerInput!) { updateCustomer(id: $id, input: $in) { name } }`,
		map[string]any{"id": c["id"], "in": map[string]any{"name": "Amazing Grace"}})
	require.Equal(t, "Amazing Grace", obj(g.Data["updateCustomer"])["name"])

	// Validation errors carry every field at once, as REST.
	_, e := gqlError(t, f.sk, `mutation($id: ID!, $in: UpdateCustomerInput!) { updateCustomer(id: $id, input: $in) { name } }`,
		map[string]any{"id": c["id"], "in": map[string]any{"ssn": "", "dateOfBirth": ""}})
	require.Equal(t, "validation_errors", code(e))
	require.Len(t, e.Extensions["errors"], 2)

	g = gql(t, f.sk, `mutation($id: ID!) { deleteCustomer(id: $id) { id object deleted } }`, map[string]any{"id": c["id"]})
	require.Equal(t, map[string]any{"id": c["id"], "object": "customer", "deleted": true}, g.Data["deleteCustomer"])
	g = gql(t, f.sk, `query($id: ID!) { node(id: $id) { ... on Customer { id isDeleted } } }`, map[string]any{"id": c["id"]})
	require.Equal(t, true, obj(g.Data["node"])["isDeleted"])

	_, e = gqlError(t, f.sk, `mutation($id: ID!) { unblockCustomer(id: $id) { id } }`, map[string]any{"id": c["id"]})
	require.Equal(t, "invalid_state", code(e))

	// Publishable keys may not read customers.
	_, e = gqlError(t, f.pk, `query($id: ID!) { customer(id: $id) { id } }`, map[string]any{"id": c["id"]})
	require.Equal(t, "forbidden", code(e))
}

func TestCustomersConnectionStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for i := 0; i < 3; i++ {
		f.sk.CreateCustomer(testenv.CustomerSpec{Email: "c@example.com", Name: "C"})
	}
	query := `query($first: Int) { customers(first: $first, filter: {q: "example.com"}) {
		edges { cursor node { id email paymentMethods { id customer { id } } } } pageInfo { hasNextPage endCursor } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	require.True(t, obj(obj(small.Data["customers"])["pageInfo"])["hasNextPage"].(bool))
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, obj(big.Data["customers"])["edges"], 3)
	require.Equal(t, small.Statements, big.Statements, "the statement count is a constant of the query's shape")
	require.Equal(t, 2, big.Statements, "the credential, then the page with each customer's payment methods")
}
