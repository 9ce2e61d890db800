package httpx

import (
	"net/http"
	"strings"
)

// apiPrefixes are the path prefixes of the REST API, whose paths answer
// with or without a trailing slash (API-DECISIONS §9: the real service's
// clients send some paths with one, e.g. `/v1/subscriptions/{id}/phases/`).
var apiPrefixes = []string{"/v1/", "/v2/"}

// TrailingSlash drops one trailing slash from an API path before routing,
// so `/v1/coupons/` is `/v1/coupons` for the router, the handlers (a list's
// meta.url) and the logs alike. One rule for every route, rather than a
// second pattern per route. Paths outside the API (the dashboard, the
// playground) keep their slash: their relative links depend on it.
func TrailingSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := CanonicalPath(r.URL.Path); p != r.URL.Path {
			r.URL.Path = p
			r.URL.RawPath = strings.TrimSuffix(r.URL.RawPath, "/")
		}
		next.ServeHTTP(w, r)
	})
}

// CanonicalPath is p as the router sees it: an API path without its one
// trailing slash, any other path unchanged.
func CanonicalPath(p string) string {
	if len(p) > 1 && strings.HasSuffix(p, "/") && isAPIPath(p) {
		return strings.TrimSuffix(p, "/")
	}
	return p
}

func isAPIPath(p string) bool {
	for _, prefix := range apiPrefixes {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}
