package app_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client("")
	r := c.Get("/healthz")
	require.Equal(t, 200, r.Status)
	r = c.Get("/readyz")
	require.Equal(t, 200, r.Status)
	require.Equal(t, "ready\n", string(r.Body))
}

func TestReadinessFailsWithoutTheDatabase(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	env.DB.Close()
	require.Equal(t, 503, env.Client("").Get("/readyz").Status)
}

func TestMetricsCountRequestsByRoute(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	c.Get("/v1/accounts")
	c.Get("/v1/accounts/does-not-exist")
	r := env.Client("").Get("/metrics")
	require.Equal(t, 200, r.Status)
	body := string(r.Body)
	require.Contains(t, body, `http_requests_total{method="GET",route="/v1/accounts",status="200"} 1`)
	require.Contains(t, body, `http_requests_total{method="GET",route="/v1/accounts/{id}",status="404"} 1`)
	require.Contains(t, body, "http_request_duration_seconds_bucket")
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimSpace(s.b.String()), "\n")
}

func TestOneJSONLogLinePerRequest(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	env := testenv.New(t, testenv.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	r := env.Client(env.Keys.Sandbox.Secret).Get("/v1/accounts/nope")
	require.Equal(t, 404, r.Status)
	rid := r.Header.Get("Request-Id")
	require.True(t, strings.HasPrefix(rid, "req_"), rid)
	require.Equal(t, rid, r.JSON()["request_id"], "the error body carries the same request id")

	var line map[string]any
	for _, l := range buf.lines() {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		if m["request_id"] == rid {
			require.Nil(t, line, "exactly one line per request")
			line = m
		}
	}
	require.NotNil(t, line)
	require.Equal(t, "request", line["msg"])
	require.Equal(t, float64(404), line["status"])
	require.Equal(t, env.Merchant.ID.String(), line["merchant_id"])
	require.Equal(t, "/v1/accounts/{id}", line["route"])
	require.Equal(t, "secret", line["credential"])
	require.Contains(t, line, "duration_ms")
	require.Contains(t, line, "statements")
	require.NotContains(t, buf.lines()[0], env.Keys.Sandbox.Secret, "credentials are never logged")
}

func TestUnknownRoutesAnswerInTheEnvelope(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	r := c.Get("/v1/nothing-here")
	require.Equal(t, 404, r.Status)
	require.Equal(t, "route_not_found", r.JSON()["code"])
	r = c.Do("PUT", "/v1/accounts", nil, nil)
	require.Equal(t, 405, r.Status)
	require.Equal(t, "method_not_allowed", r.JSON()["code"])
}

func TestGraphQLRequestsLogTheirOperation(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	env := testenv.New(t, testenv.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	g := env.Client(env.Keys.Sandbox.Secret).GraphQL(`query RecentAccounts { accounts(first: 1) { edges { node { id } } } }`, nil)
	require.Empty(t, g.Errors)
	var found bool
	for _, l := range buf.lines() {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m))
		if m["route"] == "/graphql" {
			require.Equal(t, "RecentAccounts", m["graphql_operation"])
			require.Equal(t, "query", m["graphql_operation_type"])
			found = true
		}
	}
	require.True(t, found)
}
