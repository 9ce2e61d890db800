package app

import (
	"encoding/json"
	"html/template"
	"mime"
	"net/http"
	"strings"
)

// A link of the front door: what a new user can open on this server.
type frontLink struct {
	Name string `json:"name"`
	Path string `json:"path"`
	What string `json:"description"`
}

// frontDoor answers GET / with the server's entry points: the GraphQL
// playground, the reference dashboard, the OpenAPI document, the docs and
// the APIs themselves. A browser gets a page of links; a client asking for
// application/json gets them as JSON. Only what is served is listed.
func frontDoor(o Options) http.HandlerFunc {
	links := []frontLink{}
	if o.Playground != nil {
		links = append(links, frontLink{"playground", "/playground", "GraphiQL on /graphql: put a sandbox secret key (sk_sandbox_…) in its API key field"})
	}
	if o.Dashboard != nil {
		links = append(links, frontLink{"dashboard", "/dashboard", "the reference dashboard of a merchant's sandbox, built on /graphql"})
	}
	links = append(links, frontLink{"openapi", "/openapi.json", "the OpenAPI 3.1 document of the REST API (/v1, /v2)"})
	if o.Docs != nil {
		links = append(links, frontLink{"docs", "/docs/", "the documentation: architecture, GraphQL guide, sandbox test data, webhooks, operations"})
	}
	if o.GraphQL != nil {
		links = append(links, frontLink{"graphql", "/graphql", "the GraphQL endpoint (POST, Authorization: Bearer <key>)"})
	}
	links = append(links, frontLink{"rest", "/v1", "the REST API (Authorization: Bearer <key>)"},
		frontLink{"health", "/healthz", "liveness; /readyz for readiness"})
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if wantsJSON(r) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"object": "server", "links": links})
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		_ = frontPage.Execute(w, links)
	}
}

// wantsJSON reports whether the request's Accept names application/json
// (or another JSON type) before any HTML.
func wantsJSON(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept"), ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch {
		case mediaType == "text/html" || mediaType == "application/xhtml+xml":
			return false
		case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
			return true
		}
	}
	return false
}

var frontPage = template.Must(template.New("front").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payments platform API server</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
li{margin:.4rem 0}code{font-size:.9em}.muted{color:#6b7385}</style></head>
<body><h1>Payments platform API server</h1>
<p class="muted">Keys come from <code>server merchants create --name NAME</code>; sample data from <code>server seed --merchant ID</code>.</p>
<ul>{{range .}}<li><a href="{{.Path}}" data-link="{{.Name}}">{{.Path}}</a> — {{.What}}</li>
{{end}}</ul></body></html>
`))
