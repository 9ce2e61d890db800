package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

func TestParseCORSOrigins(t *testing.T) {
	got, err := httpx.ParseCORSOrigins(" https://dash.example.com, http://localhost:3000/ ")
	require.NoError(t, err)
	require.Equal(t, []string{"https://dash.example.com", "http://localhost:3000"}, got)
	got, err = httpx.ParseCORSOrigins("")
	require.NoError(t, err)
	require.Nil(t, got, "off by default")
	got, err = httpx.ParseCORSOrigins("*")
	require.NoError(t, err)
	require.Equal(t, []string{"*"}, got)
	for _, bad := range []string{"dash.example.com", "ftp://x", "https://x/path", "*,https://x", "https://u:p@x"} {
		_, err := httpx.ParseCORSOrigins(bad)
		require.Error(t, err, bad)
	}
}

// The API's paths answer preflights and carry the CORS headers for an
// allowed origin; another origin, and the server's own pages, get none;
// credentials are never allowed, with a wildcard or a list.
func TestCORS(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", "req_1")
		_, _ = w.Write([]byte(`{}`))
	})
	send := func(h http.Handler, method, path, origin string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	listed := httpx.CORS([]string{"https://dash.example.com"})(api)
	for _, path := range []string{"/graphql", "/v1/accounts", "/v2/transfers/x", "/openapi.json"} {
		pre := send(listed, http.MethodOptions, path, "https://dash.example.com",
			"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type, idempotency-key")
		require.Equal(t, http.StatusNoContent, pre.Code, path)
		require.Equal(t, "https://dash.example.com", pre.Header().Get("Access-Control-Allow-Origin"), path)
		require.Contains(t, pre.Header().Get("Access-Control-Allow-Methods"), "POST", path)
		require.Contains(t, pre.Header().Get("Access-Control-Allow-Headers"), "authorization", path)
		require.Empty(t, pre.Header().Get("Access-Control-Allow-Credentials"), path)

		get := send(listed, http.MethodGet, path, "https://dash.example.com")
		require.Equal(t, http.StatusOK, get.Code)
		require.Equal(t, "https://dash.example.com", get.Header().Get("Access-Control-Allow-Origin"), path)
		require.Contains(t, get.Header().Get("Access-Control-Expose-Headers"), "Request-Id", path)
		require.Contains(t, get.Header().Values("Vary"), "Origin", path)
		require.Empty(t, get.Header().Get("Access-Control-Allow-Credentials"), path)

		other := send(listed, http.MethodGet, path, "https://evil.example.com")
		require.Empty(t, other.Header().Get("Access-Control-Allow-Origin"), path)
		otherPre := send(listed, http.MethodOptions, path, "https://evil.example.com", "Access-Control-Request-Method", "POST")
		require.Empty(t, otherPre.Header().Get("Access-Control-Allow-Origin"), path)
	}
	for _, path := range []string{"/dashboard", "/playground", "/healthz", "/metrics"} {
		rec := send(listed, http.MethodGet, path, "https://dash.example.com")
		require.Empty(t, rec.Header().Get("Access-Control-Allow-Origin"), path)
	}

	any := httpx.CORS([]string{"*"})(api)
	rec := send(any, http.MethodGet, "/v1/accounts", "https://anywhere.example")
	require.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
	require.Empty(t, rec.Header().Get("Access-Control-Allow-Credentials"), "never credentials with a wildcard")
	pre := send(any, http.MethodOptions, "/graphql", "https://anywhere.example", "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "authorization")
	require.Equal(t, "*", pre.Header().Get("Access-Control-Allow-Origin"))
	require.Empty(t, pre.Header().Get("Access-Control-Allow-Credentials"))

	off := httpx.CORS(nil)(api)
	rec = send(off, http.MethodGet, "/v1/accounts", "https://dash.example.com")
	require.Empty(t, rec.Header().Get("Access-Control-Allow-Origin"), "off by default")
}
