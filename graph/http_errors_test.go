package graph_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every refusal of /graphql has GraphQL's shape, whatever refused it:
// errors[] with a message and extensions.code, extensions.status and the
// request id. A request without a credential and one whose credential
// does not authenticate are both 401 (GraphQL over HTTP lets a server
// refuse a request for authentication whatever its document); a document
// that does not parse or validate is 200 in application/json, whose
// clients read the errors, and 400 in application/graphql-response+json.
func TestGraphQLErrorsHaveOneShapeOverHTTP(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ accounts(first: 1) { edges { node { id } } } }`

	check := func(t *testing.T, status int, raw []byte, errs []map[string]any, wantStatus int, wantCode string) {
		t.Helper()
		require.Equal(t, wantStatus, status, string(raw))
		require.NotEmpty(t, errs, string(raw))
		ext, _ := errs[0]["extensions"].(map[string]any)
		require.Equal(t, wantCode, ext["code"], string(raw))
		require.NotEmpty(t, errs[0]["message"], string(raw))
		require.NotEmpty(t, ext["request_id"], string(raw))
		require.NotContains(t, string(raw), `"error_details"`, "not REST's envelope: %s", raw)
	}
	decode := func(t *testing.T, raw []byte) []map[string]any {
		t.Helper()
		var body struct {
			Errors []map[string]any `json:"errors"`
		}
		require.NoError(t, json.Unmarshal(raw, &body), string(raw))
		return body.Errors
	}

	t.Run("no credential", func(t *testing.T) {
		r := f.env.Client("").GraphQL(query, nil)
		check(t, r.Status, r.Raw, decode(t, r.Raw), http.StatusUnauthorized, "authentication_required")
		require.Nil(t, r.Data, "nothing ran")
		// __typename alone needs no credential.
		typename := f.env.Client("").GraphQL(`{ __typename }`, nil)
		require.Equal(t, http.StatusOK, typename.Status, string(typename.Raw))
		require.Empty(t, typename.Errors, string(typename.Raw))
	})
	t.Run("a credential that does not authenticate", func(t *testing.T) {
		r := f.env.Client("sk_sandbox_"+"0000000000000000000000000000000000").GraphQL(query, nil)
		check(t, r.Status, r.Raw, decode(t, r.Raw), http.StatusUnauthorized, "invalid_api_key")
	})
	t.Run("a document that does not parse", func(t *testing.T) {
		r := f.sk.GraphQL(`{ accounts(`, nil)
		check(t, r.Status, r.Raw, decode(t, r.Raw), http.StatusOK, "GRAPHQL_PARSE_FAILED")
		strict := f.sk.Do(http.MethodPost, "/graphql", map[string]any{"query": `{ accounts(`},
			http.Header{"Accept": {"application/graphql-response+json"}})
		check(t, strict.Status, strict.Body, decode(t, strict.Body), http.StatusBadRequest, "GRAPHQL_PARSE_FAILED")
		require.Equal(t, "application/graphql-response+json", strict.Header.Get("Content-Type"))
	})
	t.Run("a document that does not validate", func(t *testing.T) {
		r := f.sk.GraphQL(`{ accounts(first: 1) { nope } }`, nil)
		check(t, r.Status, r.Raw, decode(t, r.Raw), http.StatusOK, "GRAPHQL_VALIDATION_FAILED")
	})
	t.Run("an operation's error", func(t *testing.T) {
		r := f.sk.GraphQL(`{ accounts(first: 0) { edges { node { id } } } }`, nil)
		check(t, r.Status, r.Raw, decode(t, r.Raw), http.StatusOK, "validation_errors")
	})
}
