package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// maxErrorResponse is more than any refusal needs: refusals are one
// short error, never an echo of the request.
const maxErrorResponse = 1024

// refused requires a response to be the single error code, with status
// 400 in the response and in extensions, and small.
func refused(t *testing.T, r *testenv.Response, wantCode string) map[string]any {
	t.Helper()
	require.Less(t, len(r.Body), maxErrorResponse, "a refusal echoes nothing: %.300s", r.Body)
	var body struct {
		Data   any                    `json:"data"`
		Errors []testenv.GraphQLError `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body), string(r.Body))
	require.Len(t, body.Errors, 1, string(r.Body))
	e := body.Errors[0]
	require.Equal(t, wantCode, code(e), string(r.Body))
	require.Equal(t, status(e), r.Status, string(r.Body))
	require.NotEmpty(t, e.Extensions["request_id"])
	require.Nil(t, body.Data)
	return e.Extensions
}

// post sends a raw body to /graphql.
func post(c *testenv.Client, body any) *testenv.Response {
	return c.Do(http.MethodPost, "/graphql", body, nil)
}

// queryBody is a POST body for query.
func queryBody(query string) map[string]any { return map[string]any{"query": query} }

// Finding 1: the body is read up to 1 MiB (REST's limit), and no error
// echoes it.
func TestRequestBodyIsCappedAndNeverEchoed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	require.EqualValues(t, httpx.MaxBodyBytes, graph.DefaultMaxBodyBytes)

	// A 2 MB variable, valid JSON: refused unread.
	big := map[string]any{"query": `query($v: String) { __typename }`, "variables": map[string]any{"v": strings.Repeat("x", 2<<20)}}
	e := refused(t, post(f.sk, big), graph.CodeRequestTooLarge)
	require.Equal(t, 400, int(e["status"].(float64)))

	// An invalid body over the limit, and one under it: neither is echoed.
	refused(t, post(f.sk, strings.Repeat("{", 3<<20)), graph.CodeRequestTooLarge)
	r := post(f.sk, `{"query": "{ __typename }"`+strings.Repeat(" x", 400_000))
	refused(t, r, "invalid_json")
	require.NotContains(t, string(r.Body), "x x x")

	for body, want := range map[string]string{
		``:                               "invalid_json",
		`   `:                            "invalid_json",
		`[{"query": "{ __typename }"}]`:  "invalid_json",
		`"{ __typename }"`:               "invalid_json",
		`{"query": "{ __typename }"} {}`: "invalid_json",
		`{"query": "{ __typename }"}]`:   "invalid_json",
		`{"query": "{ __typename }"`:     "invalid_json",
		`{"query": 5}`:                   "parameter_invalid",
		`{"query": "{ __typename }", "variables": []}`: "parameter_invalid",
	} {
		r := post(f.sk, body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%q: %s", body, r.Body)
		refused(t, r, want)
	}
	e = refused(t, post(f.sk, `{"query": 5}`), "parameter_invalid")
	require.Equal(t, "query", e["param"])

	// Not JSON at all.
	resp, err := f.env.Server.Client().Post(f.env.Server.URL+"/graphql", "application/graphql", strings.NewReader("{ __typename }"))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	refused(t, &testenv.Response{Status: resp.StatusCode, Body: raw}, graph.CodeUnsupportedMediaType)
	require.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)

	// Invalid UTF-8 is refused as REST refuses it, not stored as U+FFFD.
	in := testenv.Individual().WithExternalID("MARK").GraphQLInput()
	raw, err = json.Marshal(map[string]any{"query": createAccountMutation, "variables": map[string]any{"input": in}})
	require.NoError(t, err)
	for _, bad := range []string{"a\xffb", `a\ud800b`, `\udc00`, `\ud800\u0041`} {
		r = post(f.sk, strings.Replace(string(raw), "MARK", bad, 1))
		e := refused(t, r, "validation_errors")
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, bad)
		require.Equal(t, "variables.input", e["param"], bad)
	}
	require.Equal(t, 0, countGraphAccounts(t, f))
	// A surrogate pair and an escaped backslash are fine.
	for _, good := range []string{`\ud83d\ude00`, `\\ud800`} {
		gql(t, f.sk, `{ __typename }`, nil)
		r = post(f.sk, strings.Replace(string(raw), "MARK", good, 1))
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", good, r.Body)
	}
	require.Equal(t, 2, countGraphAccounts(t, f))

	// A GET query string is capped alike (behind the server's header limit).
	req := httptest.NewRequest(http.MethodGet, "/graphql?query="+url.QueryEscape(strings.Repeat("#", 2<<20)), nil)
	rec := httptest.NewRecorder()
	f.env.App.Handler.ServeHTTP(rec, req)
	refused(t, &testenv.Response{Status: rec.Code, Body: rec.Body.Bytes()}, graph.CodeRequestTooLarge)

	gql(t, f.sk, `{ __typename }`, nil)
}

// countingBody is an endless request body that counts the bytes read from
// it: a 200 MB variables value that is never all sent.
type countingBody struct {
	prefix string
	read   int64
	limit  int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.limit {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && b.read < b.limit {
		if b.read < int64(len(b.prefix)) {
			p[n] = b.prefix[b.read]
		} else {
			p[n] = 'x'
		}
		n++
		b.read++
	}
	return n, nil
}

// The handler reads no more than the limit of a 200 MB body of unknown
// length (the case that took the server from 400 MB to 2 GB).
func TestAHugeBodyIsReadNoFurtherThanTheLimit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := &countingBody{prefix: `{"query": "query($v: String) { __typename }", "variables": {"v": "`, limit: 200 << 20}
	req := httptest.NewRequest(http.MethodPost, "/graphql", body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.env.Keys.Sandbox.Secret)
	rec := httptest.NewRecorder()
	f.env.App.Handler.ServeHTTP(rec, req)
	require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), graph.CodeRequestTooLarge)
	require.LessOrEqual(t, body.read, int64(httpx.MaxBodyBytes)+64<<10, "bytes read of 200 MB")
	require.Less(t, rec.Body.Len(), maxErrorResponse)
}

// repeat is n copies of s.
func repeat(s string, n int) string { return strings.Repeat(s, n) }

// aliasedTypename is { a0: __typename a1: __typename ... } with n aliases.
func aliasedTypename(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " a%d: __typename", i)
	}
	b.WriteString(" }")
	return b.String()
}

// Finding 2: the limits act before gqlgen parses and validates, whose
// cost grows with the square of the field count. A query over a limit is
// answered with that limit's code alone: no parse or validation error
// beside it shows that neither ran.
func TestDocumentLimitsActBeforeValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	anon := f.env.Client("") // no key needed to be refused

	// The 220 KB query of 20,000 fields: refused by the token limit.
	refused(t, post(anon, queryBody("{"+repeat(" __typename", 20000)+" }")), graph.CodeQueryTooLarge)
	// Refused before parsing: a syntax error past the limit is not reached.
	refused(t, post(anon, queryBody("{"+repeat(" __typename", graph.DefaultTokenLimit)+" ) ) )")), graph.CodeQueryTooLarge)
	// Comments are tokens too.
	refused(t, post(anon, queryBody("{ __typename }"+repeat("\n#", graph.DefaultTokenLimit))), graph.CodeQueryTooLarge)

	// Under the token limit, the field limit: 600 fields that do not exist
	// get too_many_fields alone, not 600 validation errors.
	refused(t, post(anon, queryBody("{"+repeat(" nope", graph.DefaultMaxFields+100)+" }")), graph.CodeTooManyFields)
	// Fragments count wherever they are spread: 4 spreads of 4 spreads of
	// ... 6 deep is 4^6 fields from a 600-byte query.
	frag := `{ node(id: "x") { ...F0 } }`
	for i := range 6 {
		frag += fmt.Sprintf(" fragment F%d on Account { %s }", i, repeat(fmt.Sprintf(" capabilities { account { ...F%d } }", i+1), 4))
	}
	frag += " fragment F6 on Account { id }"
	refused(t, post(anon, queryBody(frag)), graph.CodeTooManyFields)
	// Fragments made of spreads only count too (spreads are selections).
	spreads := "{ ...S0 }"
	for i := range 30 {
		spreads += fmt.Sprintf(" fragment S%d on Query { ...S%d ...S%d }", i, i+1, i+1)
	}
	spreads += " fragment S30 on Query { __typename }"
	refused(t, post(anon, queryBody(spreads)), graph.CodeTooManyFields)
	// A fragment no operation uses still counts (validation reads it).
	refused(t, post(anon, queryBody("{ __typename } fragment U on Query {"+repeat(" __typename", graph.DefaultMaxFields)+" }")), graph.CodeTooManyFields)

	// Aliases and directives, as written.
	refused(t, post(anon, queryBody(aliasedTypename(graph.DefaultMaxAliases+1))), graph.CodeTooManyAliases)
	refused(t, post(anon, queryBody("{ __typename"+repeat(" @include(if: true)", graph.DefaultMaxDirectives+1)+" }")), graph.CodeTooManyDirectives)
	refused(t, post(anon, queryBody(`query($s: Boolean!) {`+repeat(" __typename @skip(if: $s)", graph.DefaultMaxDirectives+1)+" }")), graph.CodeTooManyDirectives)

	// The schema once per query: each alias of __schema answered it whole
	// (50 of them, 4 KB of query, answered 850 KB).
	refused(t, post(anon, queryBody(`{ a: __schema { types { name } } b: __schema { types { name } } }`)), graph.CodeIntrospectionRepeated)
	refused(t, post(anon, queryBody(`{ __schema { types { name } } ...S } fragment S on Query { b: __schema { types { name } } }`)), graph.CodeIntrospectionRepeated)

	// GET and persisted queries go through the same limits.
	r := anon.Get("/graphql?query=" + url.QueryEscape(aliasedTypename(graph.DefaultMaxAliases+1)))
	refused(t, r, graph.CodeTooManyAliases)
	big := aliasedTypename(graph.DefaultMaxAliases + 1)
	r = post(anon, map[string]any{"query": big, "extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": sha(big)}}})
	refused(t, r, graph.CodeTooManyAliases)

	// At the limits, queries run.
	g := gql(t, f.sk, aliasedTypename(graph.DefaultMaxAliases), nil)
	require.Len(t, g.Data, graph.DefaultMaxAliases)
	gql(t, f.sk, "{"+repeat(" __typename", graph.DefaultMaxFields)+" }", nil)
	gql(t, f.sk, "{ __typename"+repeat(" @include(if: true)", 1)+repeat(" a: __typename @skip(if: false)", graph.DefaultMaxDirectives-1)+" }", nil)
	// A dashboard page, every field of an account, and GraphiQL's
	// introspection query fit.
	gql(t, f.sk, `{ accounts(first: 100) { edges { cursor node { id type status externalId metadata created updated
		profile { individual { email } }
		capabilities { id name status currentlyDue created account { id status } } steps { key status } } } } }`, nil)
	gql(t, f.sk, `{ accounts(first: 3) { edges { node { `+accountFields+` } } } }`, nil)
	g = gql(t, f.sk, introspectionQuery, nil)
	require.NotEmpty(t, obj(g.Data["__schema"])["types"])
}

// A query over the complexity limit is refused like one over the depth
// limit: 422, nothing ran (gqlgen answered it 200).
func TestComplexityLimitIsARefusal(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := f.sk.GraphQL(`{ accounts(first: 100) { edges { cursor node { `+accountFields+` } } } }`, nil)
	require.Equal(t, http.StatusOK, g.Status, "a document refused is answered 200 in application/json")
	require.Len(t, g.Errors, 1)
	require.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", code(g.Errors[0]))
	require.Zero(t, g.Statements-1, "only the credential's statement")
}

// With the token limit raised, the 20,000-field query meets the field
// limit, and 20,000 @include directives the directive limit: each answer
// is one short error (the @include query answered 4.3 MB of errors).
func TestConfiguredLimits(t *testing.T) {
	t.Parallel()
	f := setup(t, withGraph(graph.Options{TokenLimit: 200_000, MaxFields: 50, MaxAliases: 2, MaxDirectives: 3, MaxMutationFields: 1}))
	refused(t, post(f.sk, queryBody("{"+repeat(" __typename", 20000)+" }")), graph.CodeTooManyFields)
	refused(t, post(f.sk, queryBody("{ __typename"+repeat(" @include(if: true)", 20000)+" }")), graph.CodeTooManyDirectives)
	refused(t, post(f.sk, queryBody(aliasedTypename(3))), graph.CodeTooManyAliases)
	gql(t, f.sk, aliasedTypename(2), nil)
	gql(t, f.sk, "{"+repeat(" __typename", 50)+" }", nil)
	refused(t, post(f.sk, queryBody("{"+repeat(" __typename", 51)+" }")), graph.CodeTooManyFields)
}

// Finding 9: a request carries at most 10 root mutation fields; over that
// none of them runs (300 aliased createAccount all ran before).
func TestMutationFieldsPerRequest(t *testing.T) {
	t.Parallel()
	f := setup(t)
	creates := func(n int) (string, map[string]any) {
		var b strings.Builder
		b.WriteString("mutation($in: CreateAccountInput!) {")
		for i := range n {
			fmt.Fprintf(&b, " c%d: createAccount(input: $in) { id }", i)
		}
		b.WriteString(" }")
		return b.String(), map[string]any{"in": testenv.Individual().GraphQLInput()}
	}
	q, vars := creates(graph.DefaultMaxMutationFields + 1)
	refused(t, post(f.sk, map[string]any{"query": q, "variables": vars}), graph.CodeTooManyMutations)
	require.Equal(t, 0, countGraphAccounts(t, f), "none ran")
	q, vars = creates(300)
	r := post(f.sk, map[string]any{"query": q, "variables": vars})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, 0, countGraphAccounts(t, f), "none ran")

	// Through a fragment, counted all the same.
	var frag strings.Builder
	frag.WriteString("mutation($in: CreateAccountInput!) { ...M } fragment M on Mutation {")
	for i := range graph.DefaultMaxMutationFields + 1 {
		fmt.Fprintf(&frag, " c%d: createAccount(input: $in) { id }", i)
	}
	frag.WriteString(" }")
	refused(t, post(f.sk, map[string]any{"query": frag.String(), "variables": vars}), graph.CodeTooManyMutations)
	require.Equal(t, 0, countGraphAccounts(t, f), "none ran")

	// At the limit, every one runs.
	q, vars = creates(graph.DefaultMaxMutationFields)
	g := gql(t, f.sk, q, vars)
	require.Len(t, g.Data, graph.DefaultMaxMutationFields)
	require.Equal(t, graph.DefaultMaxMutationFields, countGraphAccounts(t, f))
}

// A response carries at most MaxErrors errors, the last a note of how many
// were left out.
func TestErrorCountIsCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// 150 unknown fields: 150 validation errors.
	var b strings.Builder
	b.WriteString("{")
	for i := range 150 {
		fmt.Fprintf(&b, " nope%d", i)
	}
	b.WriteString(" }")
	g := f.sk.GraphQL(b.String(), nil)
	require.Equal(t, http.StatusOK, g.Status)
	require.Len(t, g.Errors, graph.DefaultMaxErrors+1)
	require.Equal(t, "GRAPHQL_VALIDATION_FAILED", code(g.Errors[0]))
	note := g.Errors[graph.DefaultMaxErrors]
	require.Equal(t, graph.CodeTooManyErrors, code(note))
	require.EqualValues(t, 50, note.Extensions["omitted"])
	require.NotEmpty(t, note.Extensions["request_id"])

	// Execution errors alike.
	f = setup(t, withGraph(graph.Options{MaxErrors: 3}))
	g = f.sk.GraphQL(aliased("account", "id", []string{"a", "b", "c", "d", "e"}), nil)
	require.Equal(t, http.StatusOK, g.Status)
	require.Len(t, g.Data, 5)
	require.Len(t, g.Errors, 4)
	require.Equal(t, "resource_missing", code(g.Errors[0]))
	require.EqualValues(t, 2, g.Errors[3].Extensions["omitted"])
}

// No error echoes more than an excerpt of the input: ids, tokens and
// aliases of any length are cut.
func TestErrorsEchoOnlyAnExcerpt(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "a 200,000-character field name through validation")
	f := setup(t)
	long := repeat("z", 200_000)

	// An id in a resource_missing message.
	g := f.sk.GraphQL(`query($id: ID!) { account(id: $id) { id } }`, map[string]any{"id": long})
	require.Len(t, g.Errors, 1)
	require.Equal(t, "resource_missing", code(g.Errors[0]))
	require.Less(t, len(g.Raw), 2048, "%.300s", g.Raw)

	// A long token in a parse error, a long field name in a validation error.
	for _, q := range []string{`{ "` + long + `" }`, `{ ` + long + ` }`} {
		r := post(f.sk, queryBody(q))
		require.Less(t, len(r.Body), 2048, "%.300s", r.Body)
		require.Contains(t, string(r.Body), `"errors"`, "%.300s", r.Body)
	}

	// A long alias in an error's path (the data keeps the client's name).
	g = f.sk.GraphQL(`{ `+long+`: account(id: "nope") { id } }`, nil)
	require.Len(t, g.Errors, 1)
	require.LessOrEqual(t, len(g.Errors[0].Path[0].(string)), 128)
}

// Work stops when the client leaves: a request whose client has gone by
// the time its body is read runs nothing.
func TestNothingRunsOnceTheClientHasGone(t *testing.T) {
	t.Parallel()
	f := setup(t)
	raw, err := json.Marshal(map[string]any{"query": createAccountMutation,
		"variables": map[string]any{"input": testenv.Individual().GraphQLInput()}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	body := &cancelAtEOF{r: strings.NewReader(string(raw)), cancel: cancel}
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/graphql", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.env.Keys.Sandbox.Secret)
	rec := httptest.NewRecorder()
	f.env.App.Handler.ServeHTTP(rec, req)
	require.Empty(t, rec.Body.String())
	require.Equal(t, 0, countGraphAccounts(t, f))
}

// cancelAtEOF cancels the request's context once its body has been read:
// the client hung up after sending.
type cancelAtEOF struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (b *cancelAtEOF) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.cancel()
	}
	return n, err
}

// Other methods and a mutation over GET answer 405 in GraphQL's format.
func TestMethods(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Do(http.MethodPut, "/graphql", queryBody("{ __typename }"), nil)
	e := refused(t, r, graph.CodeMethodNotAllowed)
	require.Equal(t, 405, int(e["status"].(float64)))
	r = f.sk.Get("/graphql?query=" + url.QueryEscape(`mutation { disableAccount(id: "x") { id } }`))
	refused(t, r, graph.CodeMethodNotAllowed)
	require.Equal(t, "POST", r.Header.Get("Allow"))
	r = f.sk.Get("/graphql?query=" + url.QueryEscape("{ __typename }") + "&variables=%5B%5D")
	refused(t, r, "parameter_invalid")
}

// Introspection can be turned off; the playground is served only when
// configured (serve turns both on by default).
func TestIntrospectionAndPlaygroundAreConfigurable(t *testing.T) {
	t.Parallel()
	on := setup(t, func(o *app.Options) { o.Playground = graph.PlaygroundHandler() })
	g := gql(t, on.sk, `{ __schema { queryType { name } } }`, nil)
	require.Equal(t, "Query", obj(obj(g.Data["__schema"])["queryType"])["name"])
	r := on.sk.Get("/playground")
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, string(r.Body), "graphiql")

	off := setup(t, withGraph(graph.Options{DisableIntrospection: true}))
	refused(t, post(off.sk, queryBody(`{ __schema { queryType { name } } }`)), graph.CodeIntrospectionDisabled)
	refused(t, post(off.sk, queryBody(`{ ...T } fragment T on Query { __type(name: "Account") { name } }`)), graph.CodeIntrospectionDisabled)
	gql(t, off.sk, `{ __typename }`, nil) // not introspection
	r = off.sk.Get("/playground")
	require.Equal(t, http.StatusNotFound, r.Status)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// introspectionQuery is GraphiQL's (graphql-js getIntrospectionQuery with
// every option on): 184 tokens, 240 fields with its fragments expanded.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    description
    queryType { name kind }
    mutationType { name kind }
    subscriptionType { name kind }
    types { ...FullType }
    directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description specifiedByURL isOneOf
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } }`
