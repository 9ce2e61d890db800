package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestProductFlowGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.sk, `mutation($in: ProductInput!) { createProduct(input: $in) {
		id name purchaseType recurring { interval intervalCount } defaultPrice active metadata phases { id } } }`,
		map[string]any{"in": testenv.Product().GraphQLInput()})
	p := obj(g.Data["createProduct"])
	require.Equal(t, "RECURRING", p["purchaseType"])
	require.Equal(t, map[string]any{"interval": "MONTHLY", "intervalCount": float64(1)}, p["recurring"])
	require.Equal(t, float64(2500), p["defaultPrice"])

	g = gql(t, f.sk, `mutation($id: ID!) {
		a: createProductPhase(productId: $id, input: {ordinal: 1, pricingType: STATIC, amountCents: 900, periodCount: 2}) { id }
		b: createProductPhase(productId: $id, input: {ordinal: 2, pricingType: RELATIVE, discountPercentage: "15"}) {
			id discountPercentage periodCount phaseableType productId product { id } } }`, map[string]any{"id": p["id"]})
	b := obj(g.Data["b"])
	require.Equal(t, "15.00", b["discountPercentage"])
	require.Nil(t, b["periodCount"])
	require.Equal(t, "Product", b["phaseableType"])
	require.Equal(t, p["id"], obj(b["product"])["id"])

	// The ordering rules hold over GraphQL as over REST.
	_, e := gqlError(t, f.sk, `mutation($id: ID!) { createProductPhase(productId: $id, input: {ordinal: 3, pricingType: STATIC, amountCents: 1}) { id } }`,
		map[string]any{"id": p["id"]})
	require.Equal(t, "validation_errors", code(e))

	g = gql(t, f.sk, `mutation($id: ID!, $a: ID!) { bulkUpdateProductPhases(productId: $id, phases: [{id: $a, periodCount: 4}]) {
		updatedCount phases { ordinal periodCount } } }`, map[string]any{"id": p["id"], "a": obj(g.Data["a"])["id"]})
	res := obj(g.Data["bulkUpdateProductPhases"])
	require.Equal(t, float64(1), res["updatedCount"])
	require.Equal(t, float64(4), obj(list(res["phases"])[0])["periodCount"])

	g = gql(t, f.sk, `mutation($id: ID!) { updateProduct(id: $id, input: {active: false}) { active } }`, map[string]any{"id": p["id"]})
	require.Equal(t, false, obj(g.Data["updateProduct"])["active"])

	// REST sees the same phases.
	require.Len(t, f.sk.Get("/v1/products/" + str(p["id"]) + "/phases").JSON()["phases"], 2)

	g = gql(t, f.sk, `mutation($id: ID!) { deleteProduct(id: $id) { id deleted } }`, map[string]any{"id": p["id"]})
	require.Equal(t, true, obj(g.Data["deleteProduct"])["deleted"])
}

func TestProductsConnectionStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for i := 0; i < 3; i++ {
		p := f.sk.CreateProduct(testenv.Product())
		f.sk.CreatePhase(p.ID.String(), testenv.StaticPhase(1, 100, 0))
	}
	query := `query($first: Int) { products(first: $first, filter: {name: "pro"}) {
		edges { node { id phases { id product { id name } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	edges := list(obj(big.Data["products"])["edges"])
	require.Len(t, edges, 3)
	require.Len(t, obj(obj(edges[0])["node"])["phases"], 1)
	require.Equal(t, small.Statements, big.Statements)
	require.Equal(t, 3, big.Statements, "the credential, the page, every product's phases in one batch")
}
