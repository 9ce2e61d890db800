package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/docs"
	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/graph/dashboard"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// GET / is the front door: a page linking the playground, the dashboard,
// the OpenAPI document and the docs for a browser, the same links as JSON
// for a client asking for it; each link answers.
func TestFrontDoorLinksWhatTheServerServes(t *testing.T) {
	t.Parallel()
	env := testenv.New(t, func(o *app.Options) {
		o.Playground, o.Dashboard, o.Docs = graph.PlaygroundHandler(), dashboard.Handler(), docs.Handler()
	})
	c := env.Client("")

	page := c.Do(http.MethodGet, "/", nil, http.Header{"Accept": {"text/html,application/xhtml+xml,*/*;q=0.8"}})
	require.Equal(t, http.StatusOK, page.Status, string(page.Body))
	require.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"))
	for _, path := range []string{"/playground", "/dashboard", "/openapi.json", "/docs/", "/graphql", "/v1"} {
		require.Contains(t, string(page.Body), `href="`+path+`"`, path)
	}

	r := c.Do(http.MethodGet, "/", nil, http.Header{"Accept": {"application/json"}})
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	var body struct {
		Links []struct{ Name, Path, Description string } `json:"links"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body), string(r.Body))
	paths := map[string]string{}
	for _, l := range body.Links {
		paths[l.Name] = l.Path
		require.NotEmpty(t, l.Description, l.Name)
	}
	require.Equal(t, "/playground", paths["playground"])
	require.Equal(t, "/dashboard", paths["dashboard"])
	require.Equal(t, "/openapi.json", paths["openapi"])
	require.Equal(t, "/docs/", paths["docs"])
	for _, name := range []string{"playground", "dashboard", "openapi", "docs"} {
		require.Equal(t, http.StatusOK, c.Get(paths[name]).Status, name)
	}

	list := c.Get("/docs/")
	require.Contains(t, string(list.Body), `href="/docs/graphql.md"`)
	doc := c.Get("/docs/graphql.md")
	require.Equal(t, http.StatusOK, doc.Status)
	require.Equal(t, "text/plain; charset=utf-8", doc.Header.Get("Content-Type"))
	require.True(t, strings.HasPrefix(string(doc.Body), "# GraphQL guide"))
	require.Equal(t, http.StatusNotFound, c.Get("/docs/nope.md").Status)
	require.Equal(t, http.StatusNotFound, c.Get("/docs/../go.mod").Status)
}

// What is turned off is not linked.
func TestFrontDoorLeavesOutWhatIsOff(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	r := env.Client("").Do(http.MethodGet, "/", nil, http.Header{"Accept": {"application/json"}})
	require.Equal(t, http.StatusOK, r.Status)
	require.NotContains(t, string(r.Body), `"/dashboard"`)
	require.NotContains(t, string(r.Body), `"/playground"`)
	require.Contains(t, string(r.Body), `"/openapi.json"`)
}
