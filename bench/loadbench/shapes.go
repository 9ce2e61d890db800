package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// shape is one kind of request the table measures.
type shape struct {
	label  string // the table's first column (markdown)
	slug   string // file names in the results folder
	method string
	path   string
	body   string // JSON, or ""
	want   int    // expected status
	// check validates a response body beyond its status, so a shape that
	// quietly answers an error or an empty page is not measured.
	check func(body []byte) error
	// fresh: body carries freshToken, which every request, through the
	// API and bare, replaces by a reference never used before (fresh.go).
	fresh bool
	// inserted, when set, counts the rows the shape's requests insert:
	// each run must add at least one per request it completed, or
	// requests went unmeasured (a duplicate answered instead of inserted).
	inserted func(context.Context, *database) (int64, error)
	// latency: the bare runs also measure their p99, and the shape has
	// its line in the latency table.
	latency bool
	// key, when set, is the API key the shape's requests carry instead of
	// the benchmark merchant's (the dashboard shapes read another
	// merchant's sample data).
	key string
}

// graphQLAccounts is the GraphQL shape's query: a page of 50 accounts with
// their capabilities.
const graphQLAccounts = `{ accounts(first: 50) { edges { node { id capabilities { name status currentlyDue } } } } }`

// shapes are the table's rows, in its order. getID is the account the
// get-by-id shape reads. The accounts' write comes last of theirs so the
// reads see exactly the seeded accounts; the dashboard's queries (on their
// own merchant, dashboardKey) and usage billing's shapes follow.
func shapes(getID string, usage *usageFixture, dashboardKey string) ([]shape, error) {
	gql, _ := json.Marshal(map[string]string{"query": graphQLAccounts})
	dash, err := dashboardShapes(dashboardKey)
	if err != nil {
		return nil, err
	}
	return append([]shape{
		{label: "`GET /v1/accounts/{id}`", slug: "get-account", method: http.MethodGet,
			path: "/v1/accounts/" + getID, want: http.StatusOK, check: hasField("id")},
		{label: "`GET /v1/accounts?per_page=10`", slug: "list-10", method: http.MethodGet,
			path: "/v1/accounts?per_page=10", want: http.StatusOK, check: listOf(10)},
		{label: "`GET /v1/accounts?per_page=100`", slug: "list-100", method: http.MethodGet,
			path: "/v1/accounts?per_page=100", want: http.StatusOK, check: listOf(100)},
		{label: "GraphQL `accounts(first: 50) { capabilities {…} }`", slug: "graphql-accounts-50", method: http.MethodPost,
			path: "/graphql", body: string(gql), want: http.StatusOK, check: graphQLPageOf(50)},
		// No Idempotency-Key: every request creates an account.
		{label: "`POST /v1/accounts` (2 capabilities)", slug: "create-account", method: http.MethodPost,
			path: "/v1/accounts", body: accountBody("ada@example.com", "kyc", "phone_verification"),
			want: http.StatusCreated, check: capabilitiesOf(2)},
	}, append(dash, usageShapes(usage)...)...), nil
}

// accountBody is an individual account requesting capabilities (ones
// without dependencies, so the account gets exactly these).
func accountBody(email string, capabilities ...string) string {
	b, _ := json.Marshal(map[string]any{
		"type": "individual",
		"profile": map[string]any{"individual": map[string]any{
			"name":  map[string]any{"first_name": "Ada", "last_name": "Lovelace"},
			"email": email,
		}},
		"capabilities": capabilities,
	})
	return string(b)
}

// decodedAs is a shape's check of a body that must decode as V: check
// judges the decoded value (body is there for its messages).
func decodedAs[V any](check func(v *V, body []byte) error) func([]byte) error {
	return func(body []byte) error {
		var v V
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		return check(&v, body)
	}
}

func hasField(name string) func([]byte) error {
	return decodedAs(func(v *map[string]any, _ []byte) error {
		if _, ok := (*v)[name]; !ok {
			return fmt.Errorf("no %q in the response", name)
		}
		return nil
	})
}

// restPage is a REST list: its page of objects.
type restPage struct {
	Data []json.RawMessage `json:"data"`
}

func listOf(n int) func([]byte) error {
	return decodedAs(func(v *restPage, _ []byte) error {
		if len(v.Data) != n {
			return fmt.Errorf("listed %d accounts, want %d (seed at least that many)", len(v.Data), n)
		}
		return nil
	})
}

// graphQLAccountsPage is the GraphQL shape's answer: its errors and its
// page of accounts.
type graphQLAccountsPage struct {
	Errors []json.RawMessage `json:"errors"`
	Data   struct {
		Accounts struct {
			Edges []json.RawMessage `json:"edges"`
		} `json:"accounts"`
	} `json:"data"`
}

func graphQLPageOf(n int) func([]byte) error {
	return decodedAs(func(v *graphQLAccountsPage, body []byte) error {
		if len(v.Errors) > 0 {
			return fmt.Errorf("GraphQL errors: %s", body)
		}
		if len(v.Data.Accounts.Edges) != n {
			return fmt.Errorf("GraphQL page of %d accounts, want %d (seed at least that many)", len(v.Data.Accounts.Edges), n)
		}
		return nil
	})
}

// accountCapabilities is a created account: its capabilities.
type accountCapabilities struct {
	Capabilities []json.RawMessage `json:"capabilities"`
}

func capabilitiesOf(n int) func([]byte) error {
	return decodedAs(func(v *accountCapabilities, _ []byte) error {
		if len(v.Capabilities) != n {
			return fmt.Errorf("account has %d capabilities, want %d", len(v.Capabilities), n)
		}
		return nil
	})
}
