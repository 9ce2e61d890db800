package main

import (
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/resolvers"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// serve's GraphQL flags: introspection and the playground are on unless
// the environment or a flag turns them off.
func TestGraphQLFlags(t *testing.T) {
	t.Parallel()
	parse := func(env map[string]string, args ...string) (graphqlFlags, error) {
		var g graphqlFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := g.register(fs, func(k string) string { return env[k] }); err != nil {
			return g, err
		}
		return g, fs.Parse(args)
	}
	g, err := parse(nil)
	require.NoError(t, err)
	require.Equal(t, graphqlFlags{introspection: true, playground: true}, g)

	g, err = parse(map[string]string{"GRAPHQL_INTROSPECTION": "false", "GRAPHQL_PLAYGROUND": "0"})
	require.NoError(t, err)
	require.Equal(t, graphqlFlags{}, g)
	g, err = parse(map[string]string{"GRAPHQL_INTROSPECTION": "false"}, "--graphql-introspection=true", "--playground=false")
	require.NoError(t, err)
	require.Equal(t, graphqlFlags{introspection: true}, g)
	g, err = parse(map[string]string{"GRAPHQL_INTROSPECTION_ANONYMOUS": "true"})
	require.NoError(t, err)
	require.Equal(t, graphqlFlags{introspection: true, anonymousIntrospection: true, playground: true}, g)
	g, err = parse(nil, "--graphql-introspection-anonymous")
	require.NoError(t, err)
	require.True(t, g.anonymousIntrospection)
	_, err = parse(map[string]string{"GRAPHQL_PLAYGROUND": "maybe"})
	require.ErrorContains(t, err, "GRAPHQL_PLAYGROUND")

	// apply: off leaves the playground out and introspection refused.
	o := appOptions(nil, clock.Real{}, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	require.NotNil(t, o.Playground)
	graphqlFlags{}.apply(&o, corsFlag{})
	require.Nil(t, o.Playground)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	svc := areas.New(&op.Kit{Clock: clock.Real{}, Logger: logger}, areas.Options{})
	h := o.GraphQL(&resolvers.Resolver{Svc: svc}, logger)
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ __schema { queryType { name } } }"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, rec.Body.String(), `"code":"introspection_disabled"`, rec.Body.String())

	// anonymous: an anonymous caller introspects (by default it gets 401).
	for anonymous, want := range map[bool]int{false: http.StatusUnauthorized, true: http.StatusOK} {
		o := appOptions(nil, clock.Real{}, logger)
		graphqlFlags{introspection: true, anonymousIntrospection: anonymous}.apply(&o, corsFlag{})
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ __schema { queryType { name } } }"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		o.GraphQL(&resolvers.Resolver{Svc: svc}, logger).ServeHTTP(rec, req)
		require.Equal(t, want, rec.Code, rec.Body.String())
	}

	on := appOptions(nil, clock.Real{}, logger)
	graphqlFlags{introspection: true, playground: true}.apply(&on, corsFlag{})
	require.NotNil(t, on.Playground)
	var _ app.Options = on
}
