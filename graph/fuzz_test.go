package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/resolvers"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// fuzzHandler is /graphql over services without a database: the requests
// are anonymous, so every operation refuses them (401) before any I/O,
// and the target needs no PostgreSQL and no network. A panic anywhere
// (even one gqlgen recovers) shows as an internal_error.
var fuzzHandler = sync.OnceValue(func() http.Handler {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	svc := areas.New(&op.Kit{Clock: clock.Real{}, Logger: logger}, areas.Options{})
	return graph.NewHandler(&resolvers.Resolver{Svc: svc}, graph.Options{Logger: logger})
})

// fuzzMaxResponse bounds a response: data echoes at most the query's
// aliases (the body is at most 1 MiB), errors are capped in number and
// size, and __schema may be selected once (one full introspection, which
// grows with the schema).
func fuzzMaxResponse(request int) int { return 2*request + 256<<10 + introspectionSize() }

// introspectionSize is the size of the answer to a full introspection.
var introspectionSize = sync.OnceValue(func() int {
	b, _ := json.Marshal(map[string]any{"query": introspectionQuery})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	fuzzHandler().ServeHTTP(rec, req)
	return rec.Body.Len()
})

// FuzzGraphQLRequest sends arbitrary bodies (POST) and query strings (GET)
// through the /graphql request decoder, the document limits, gqlgen's
// parser and validator and the executor, and requires a JSON GraphQL
// response of bounded size, never a panic or an internal error.
func FuzzGraphQLRequest(f *testing.F) {
	body := func(query string, vars any) []byte {
		b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		return b
	}
	chain := `{ node(id: "x") { ...F0 } }`
	for i := range 8 {
		chain += fmt.Sprintf(" fragment F%d on Account { c: capabilities { account { ...F%d } } d: capabilities { account { ...F%d } } }", i, i+1, i+1)
	}
	chain += " fragment F8 on Account { id }"
	for _, seed := range [][]byte{
		// valid queries and mutations
		body(`{ __typename }`, nil),
		body(`query($id: ID!) { node(id: $id) { id ... on Account { status } } }`, map[string]any{"id": "0190d5f0-0000-7000-8000-000000000000"}),
		body(`{ accounts(first: 100) { edges { cursor node { id capabilities { name account { id } } } } pageInfo { endCursor } } }`, nil),
		body(`mutation($in: CreateAccountInput!) { createAccount(input: $in) { id } }`, map[string]any{"in": map[string]any{"type": "INDIVIDUAL"}}),
		body(`{ events(first: 5, type: "account.created") { edges { node { id type data } } } }`, nil),
		body(introspectionQuery, nil),
		[]byte(`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`),
		[]byte(`{"query":"{ __typename }","operationName":"Nope"}`),
		// hostile queries
		body("{"+strings.Repeat(" __typename", 600)+" }", nil),
		body("{ __typename"+strings.Repeat(" @include(if: true)", 60)+" }", nil),
		body(aliasedTypename(120), nil),
		body(chain, nil),
		body(`{ a: __schema { types { name } } b: __schema { types { name } } }`, nil),
		body(`{ node(id: `+strings.Repeat("[", 2000)+`) { id } }`, nil),
		body(`{ `+strings.Repeat("z", 5000)+`: account(id: "`+strings.Repeat("y", 5000)+`") { id } }`, nil),
		body(`mutation {`+strings.Repeat(` a: disableAccount(id: "x") { id }`, 3)+` }`, nil),
		body(`query($v: Int) { __typename }`, map[string]any{"v": strings.Repeat("9", 400)}),
		body("{ __typename } fragment A on Query { ...A }", nil),
		// broken bodies
		[]byte(``), []byte(`null`), []byte(`[]`), []byte(`{"query": 5}`), []byte(`{"query": "{"`),
		[]byte(`{"query": "{ __typename }"} trailing`), []byte("{\"query\": \"{ a\xff }\"}"),
		[]byte(`{"query": "{ __typename }", "variables": "x", "extensions": 7}`),
	} {
		f.Add(seed, false)
	}
	f.Add([]byte("query={ __typename }"), true)
	f.Add([]byte("query=mutation { disableAccount(id: \"x\") { id } }"), true)
	f.Add([]byte("query=%zz&variables=[1]"), true)

	f.Fuzz(func(t *testing.T, in []byte, get bool) {
		var req *http.Request
		if get {
			req = httptest.NewRequest(http.MethodGet, "/graphql", nil)
			req.URL.RawQuery = string(in)
		} else {
			req = httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(in))
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		fuzzHandler().ServeHTTP(rec, req)

		out := rec.Body.Bytes()
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %.500s", rec.Code, in, out)
		}
		if len(out) > fuzzMaxResponse(len(in)) {
			t.Fatalf("a %d-byte request answered %d bytes", len(in), len(out))
		}
		var resp struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatalf("not JSON (%d) for %q: %v: %.500s", rec.Code, in, err, out)
		}
		if len(resp.Data) == 0 && len(resp.Errors) == 0 {
			t.Fatalf("neither data nor errors (%d) for %q: %.500s", rec.Code, in, out)
		}
		if len(resp.Errors) > graph.DefaultMaxErrors+1 {
			t.Fatalf("%d errors", len(resp.Errors))
		}
		for _, e := range resp.Errors {
			if e.Extensions["code"] == "internal_error" {
				t.Fatalf("internal error (a panic?) for %q: %.500s", in, out)
			}
			if len(e.Message) > 512 {
				t.Fatalf("a %d-byte message echoes the input: %.200s", len(e.Message), e.Message)
			}
		}
	})
}
