package testenv

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/resolvers"
)

// defaultGraphQL serves /graphql as production does.
func defaultGraphQL(res *resolvers.Resolver, logger *slog.Logger) http.Handler {
	return graph.NewHandler(res, graph.Options{Logger: logger})
}

// GraphQLError is one error of a GraphQL response.
type GraphQLError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// GraphQLResponse is a decoded GraphQL response.
type GraphQLResponse struct {
	Status     int
	Data       map[string]any
	Errors     []GraphQLError
	Statements int
	Raw        []byte
}

// GraphQL posts query with vars to /graphql.
func (c *Client) GraphQL(query string, vars map[string]any) *GraphQLResponse {
	c.env.T.Helper()
	return c.GraphQLWithHeader(query, vars, nil)
}

// GraphQLWithHeader posts query with vars and extra request headers (an
// Idempotency-Key) to /graphql.
func (c *Client) GraphQLWithHeader(query string, vars map[string]any, header http.Header) *GraphQLResponse {
	c.env.T.Helper()
	resp := c.Do(http.MethodPost, "/graphql", map[string]any{"query": query, "variables": vars}, header)
	out := &GraphQLResponse{Status: resp.Status, Statements: resp.Statements, Raw: resp.Body}
	var body struct {
		Data   map[string]any `json:"data"`
		Errors []GraphQLError `json:"errors"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		c.env.T.Fatalf("testenv: GraphQL response is not JSON (%d): %s", resp.Status, resp.Body)
	}
	out.Data, out.Errors = body.Data, body.Errors
	return out
}
