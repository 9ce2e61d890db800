package testenv

import "net/http"

// The factories create a fixture through the API under test, as a client of
// the merchant would, rather than by writing rows: a fixture then has
// exactly the state (capabilities, events) a real create gives it. They
// fail the test at once when the server refuses, since a test whose fixture
// could not be built has nothing left to check; a test about the refusal
// itself posts spec.RESTBody() or spec.GraphQLInput() and asserts on the
// response.

// CreateAccount creates spec's account over REST (POST /v1/accounts) and
// returns it as REST renders it. Anything but 201 fails the test.
func (c *Client) CreateAccount(spec AccountSpec) map[string]any {
	c.env.T.Helper()
	return c.CreateAccountRaw(spec.RESTBody())
}

// CreateAccountRaw is CreateAccount for a body the spec cannot say — an
// input alias, a null metadata value — that must still create an account.
func (c *Client) CreateAccountRaw(body map[string]any) map[string]any {
	t := c.env.T
	t.Helper()
	r := c.Post("/v1/accounts", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("testenv: create account: want 201, got %d: %s", r.Status, r.Body)
	}
	return r.JSON()
}

// CreateAccountGraphQL creates spec's account with the createAccount
// mutation and returns data.createAccount, of which selection (the fields
// inside the braces, e.g. "id status") is selected. A response with errors
// fails the test.
func (c *Client) CreateAccountGraphQL(spec AccountSpec, selection string) map[string]any {
	t := c.env.T
	t.Helper()
	query := "mutation($input: CreateAccountInput!) { createAccount(input: $input) {" + selection + "} }"
	g := c.GraphQL(query, map[string]any{"input": spec.GraphQLInput()})
	if g.Status != http.StatusOK || len(g.Errors) != 0 {
		t.Fatalf("testenv: createAccount mutation: %d: %s", g.Status, g.Raw)
	}
	a, ok := g.Data["createAccount"].(map[string]any)
	if !ok {
		t.Fatalf("testenv: createAccount mutation answered no account: %s", g.Raw)
	}
	return a
}
