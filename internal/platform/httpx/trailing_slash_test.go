package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// TestTrailingSlash: an API path is routed and seen without its one
// trailing slash; other paths, the root and a path of slashes only keep
// theirs.
func TestTrailingSlash(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"/v1/coupons/":                  "/v1/coupons",
		"/v1/coupons":                   "/v1/coupons",
		"/v1/subscriptions/abc/phases/": "/v1/subscriptions/abc/phases",
		"/v2/transfers/abc/":            "/v2/transfers/abc",
		"/v1/coupons//":                 "/v1/coupons/",
		"/dashboard/":                   "/dashboard/",
		"/playground/":                  "/playground/",
		"/":                             "/",
		"/v1/":                          "/v1",
		"/v1/customers/a%2Fb/":          "/v1/customers/a/b",
	}
	for in, want := range cases {
		var got string
		h := httpx.TrailingSlash(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.URL.Path }))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, in, nil))
		require.Equal(t, want, got, in)
	}
}
