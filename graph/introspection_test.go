package graph_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph"
)

// Schema introspection answers only a secret key: anonymous callers get
// 401, publishable keys and session secrets (public, in browsers) 403, and
// a query text another caller sent before (found in the parsed-query
// cache) is still checked against the credential of the request.
func TestIntrospectionNeedsASecretKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	anon := f.env.Client("")
	schema := `{ __schema { queryType { name } } }`

	g := gql(t, f.sk, schema, nil)
	require.Equal(t, "Query", obj(obj(g.Data["__schema"])["queryType"])["name"])

	for _, q := range []string{
		schema,
		`{ __type(name: "Account") { name } }`,
		`{ ...T } fragment T on Query { __type(name: "Account") { name } }`,
		`query { __typename ... on Query { __schema { types { name } } } }`,
	} {
		e := refused(t, post(anon, queryBody(q)), "authentication_required")
		require.EqualValues(t, http.StatusUnauthorized, e["status"])
		e = refused(t, post(f.pk, queryBody(q)), "forbidden")
		require.EqualValues(t, http.StatusForbidden, e["status"])
	}
	r := anon.Get("/graphql?query=" + url.QueryEscape(schema))
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))

	// __typename is no introspection; anything else answers as before.
	r = post(anon, queryBody(`{ __typename }`))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	// Local development may open it to every caller.
	open := setup(t, withGraph(graph.Options{AnonymousIntrospection: true}))
	r = post(open.env.Client(""), queryBody(schema))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Contains(t, string(r.Body), `"queryType":{"name":"Query"}`)
}
