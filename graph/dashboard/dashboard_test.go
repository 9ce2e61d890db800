package dashboard_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph/dashboard"
)

func get(t *testing.T, h http.Handler, path, host string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Host = host
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// The page and its assets are served from the binary, each with a policy
// that keeps the page on its own origin (websockets to its own host too).
func TestDashboardServesItsFilesUnderAPolicyOfSelf(t *testing.T) {
	t.Parallel()
	h := dashboard.Handler()
	for path, want := range map[string]string{
		"/dashboard":               "text/html",
		"/dashboard/":              "text/html",
		"/dashboard/dashboard.js":  "text/javascript",
		"/dashboard/graphql.js":    "text/javascript",
		"/dashboard/account.js":    "text/javascript",
		"/dashboard/view.js":       "text/javascript",
		"/dashboard/dashboard.css": "text/css",
		"/dashboard/favicon.svg":   "image/svg+xml",
	} {
		rec := get(t, h, path, "localhost:8080")
		require.Equal(t, http.StatusOK, rec.Code, path)
		require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), want), "%s: %s", path, rec.Header().Get("Content-Type"))
		require.Equal(t, "default-src 'self'; connect-src 'self' ws://localhost:8080 wss://localhost:8080; "+
			"base-uri 'none'; form-action 'self'; frame-ancestors 'none'", rec.Header().Get("Content-Security-Policy"), path)
		require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	}
	page := get(t, h, "/dashboard", "localhost:8080").Body.String()
	require.Contains(t, page, `<script type="module" src="/dashboard/dashboard.js"></script>`)
	require.NotContains(t, page, "<script>", "no inline script: the policy would refuse it")
	body, err := io.ReadAll(get(t, h, "/dashboard/graphql.js", "").Body)
	require.NoError(t, err)
	require.Contains(t, string(body), "graphql-transport-ws")
}

// A Host header that is not a host is left out of the policy rather than
// written into it.
func TestDashboardPolicyIgnoresAMalformedHost(t *testing.T) {
	t.Parallel()
	rec := get(t, dashboard.Handler(), "/dashboard", "evil.example; script-src *")
	require.Equal(t, "default-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
		rec.Header().Get("Content-Security-Policy"))
}

// Only the dashboard's own files are served.
func TestDashboardAnswers404ForAnythingElse(t *testing.T) {
	t.Parallel()
	h := dashboard.Handler()
	for _, path := range []string{"/dashboard/nope.js", "/dashboard/static/index.html", "/dashboard/../go.mod", "/dashboard/a/b"} {
		require.Equal(t, http.StatusNotFound, get(t, h, path, "localhost").Code, path)
	}
}
