package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/cors"
)

// CORS lets pages served from other origins call the API from a browser:
// a dashboard on its own host reading /graphql, /v1 or /openapi.json. It
// is off unless origins are configured (serve --cors-origins), since a
// browser then sends the API key it was given from that page's script.
//
// The API authenticates by the Authorization header, which a page's fetch
// sends without the browser's credentials mode; nothing depends on cookies
// or HTTP authentication. So Access-Control-Allow-Credentials is never
// sent: a wildcard origin can never be combined with credentials, and an
// allowed origin gets exactly what the Authorization header gives it.

// CORSPaths are the paths cross-origin requests may reach: the API and its
// description. The dashboard, the playground and the operational
// endpoints serve this server's own pages and are left alone.
var CORSPaths = []string{"/graphql", "/v1/", "/v2/", "/openapi.json"}

// corsMaxAge is how long a browser may keep a preflight's answer.
const corsMaxAge = 10 * time.Minute

// ParseCORSOrigins reads a comma-separated list of origins: each
// scheme://host[:port] (no path), or "*" alone for any origin. Empty is
// off (nil).
func ParseCORSOrigins(list string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o == "*" {
			out = append(out, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("CORS origin %q: want scheme://host[:port], such as https://dashboard.example.com", o)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	if len(out) > 1 {
		for _, o := range out {
			if o == "*" {
				return nil, errors.New(`CORS origins: "*" allows every origin and stands alone`)
			}
		}
	}
	return out, nil
}

// CORS answers preflights and adds the CORS headers to the responses of
// the paths in CORSPaths, for the origins given ("*": any). Requests from
// other origins, and every request when origins is empty, pass through
// untouched: the browser then refuses the page the answer.
func CORS(origins []string) func(http.Handler) http.Handler {
	if len(origins) == 0 {
		return func(next http.Handler) http.Handler { return next }
	}
	c := cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete},
		AllowedHeaders: []string{"Authorization", "Content-Type", "Accept", "Idempotency-Key"},
		ExposedHeaders: []string{"Request-Id", "Idempotent-Replayed", "Retry-After"},
		MaxAge:         int(corsMaxAge / time.Second),
		// The API's credential is a header; cookies are never involved.
		AllowCredentials: false,
	})
	return func(next http.Handler) http.Handler {
		withCORS := c.Handler(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if corsPath(r.URL.Path) {
				withCORS.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func corsPath(p string) bool {
	for _, prefix := range CORSPaths {
		if p == prefix || (strings.HasSuffix(prefix, "/") && strings.HasPrefix(p, prefix)) ||
			p+"/" == prefix {
			return true
		}
	}
	return false
}
