// Package dashboard serves the reference dashboard at /dashboard: a page, its
// plain JavaScript modules and a stylesheet, embedded in the binary, that
// show a merchant's sandbox through the public GraphQL API at /graphql and
// nothing else. It is an example for the frontends built on this server
// (docs/graphql.md walks its queries), so it holds no business rule and no
// endpoint of its own.
package dashboard

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
)

//go:embed static
var static embed.FS

// files are the dashboard's assets, by the name they are served under.
var files = mustSub(static, "static")

// Path is where the dashboard is served; its assets are under Path + "/".
const Path = "/dashboard"

// Handler serves the page at /dashboard (and /dashboard/) and its assets at
// /dashboard/NAME, each with a Content-Security-Policy that lets the page
// load and connect to its own origin only: no inline script, no other host,
// so the page shows what this server answers and cannot send a key
// elsewhere. Anything else under /dashboard is 404.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, Path), "/")
		if name == "" {
			name = "index.html"
		}
		body, err := fs.ReadFile(files, name)
		if err != nil || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", contentType(name))
		h.Set("Content-Security-Policy", contentSecurityPolicy(r.Host))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// The assets change with the binary: a browser revalidates them.
		h.Set("Cache-Control", "no-cache")
		_, _ = w.Write(body)
	})
}

// hostPattern is a host with an optional port, as a Host header carries it
// (names, IPv4, bracketed IPv6); anything else is left out of the policy.
var hostPattern = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$`)

// contentSecurityPolicy is 'self' for everything, plus websockets to the
// page's own host for the event stream: 'self' covers ws: only in newer
// browsers, so the host is named for the others.
func contentSecurityPolicy(host string) string {
	connect := "connect-src 'self'"
	if hostPattern.MatchString(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; " + connect + "; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// contentType is the media type of an asset by its extension.
func contentType(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
