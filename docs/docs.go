// Package docs holds the project's documentation pages, embedded in the
// binary so that a running server serves them at /docs/ beside the API
// they describe (internal/app's front door links them), offline.
package docs

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"sort"
	"strings"
)

//go:embed *.md
var pages embed.FS

// Path is where the pages are served.
const Path = "/docs/"

// Handler serves the list of pages at /docs/ and each page at
// /docs/NAME.md as plain UTF-8 text, which a browser shows as it is.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, Path)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if name == "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = index.Execute(w, Names())
			return
		}
		body, err := fs.ReadFile(pages, name)
		if err != nil || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(body)
	})
}

// Names lists the pages, in name order.
func Names() []string {
	entries, _ := fs.ReadDir(pages, ".")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

var index = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Documentation</title></head>
<body><h1>Documentation</h1><ul>
{{range .}}<li><a href="/docs/{{.}}">{{.}}</a></li>
{{end}}</ul><p><a href="/">Back to the start page</a></p></body></html>
`))
