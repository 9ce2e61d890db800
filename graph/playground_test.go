package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/graph/playground"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// withPlayground serves the playground as serve does by default.
func withPlayground(o *app.Options) { o.Playground = graph.PlaygroundHandler() }

var (
	urlAttribute = regexp.MustCompile(`(?i)\s(?:src|href|action|srcset|poster|data)\s*=\s*"([^"]*)"`)
	scriptTag    = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
)

// The playground comes entirely from the server: the page names only
// same-origin assets, each served with its type, a long cache lifetime
// under a URL versioned by its content, and the bytes the manifest
// records; the page carries no inline script or style and a
// Content-Security-Policy that allows nothing from elsewhere.
func TestPlaygroundIsServedFromTheBinary(t *testing.T) {
	t.Parallel()
	f := setup(t, withPlayground)
	anonymous := f.env.Client("")

	page := anonymous.Get("/playground")
	require.Equal(t, http.StatusOK, page.Status)
	require.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"))
	require.Equal(t, "no-cache", page.Header.Get("Cache-Control"))
	csp := page.Header.Get("Content-Security-Policy")
	for _, directive := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self';", "frame-ancestors 'none'"} {
		require.Contains(t, csp, directive)
	}
	require.NotContains(t, csp, "unsafe")
	require.NotContains(t, csp, "http")
	body := string(page.Body)
	require.NotContains(t, body, "http://")
	require.NotContains(t, body, "https://")
	require.NotContains(t, body, "//", "no protocol-relative URL either")
	require.NotContains(t, strings.ToLower(body), "<style")
	require.NotContains(t, strings.ToLower(body), " style=")
	require.Contains(t, body, `data-endpoint="/graphql"`)
	for _, s := range scriptTag.FindAllStringSubmatch(body, -1) {
		require.Contains(t, s[1], "src=", "no inline script")
		require.Empty(t, strings.TrimSpace(s[2]), "no inline script")
	}

	manifest, err := playground.ReadManifest()
	require.NoError(t, err)
	vendored := map[string]string{} // path -> sha256
	for _, p := range manifest.Packages {
		for _, file := range p.Files {
			vendored[file.Path] = file.SHA256
		}
		if b := p.BundledLicenses; b != nil {
			vendored[b.Path] = b.SHA256
		}
	}
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".txt": "text/plain; charset=utf-8"}

	referenced := map[string]bool{}
	for _, m := range urlAttribute.FindAllStringSubmatch(body, -1) {
		u, err := url.Parse(m[1])
		require.NoError(t, err)
		require.Empty(t, u.Scheme, "%s is same-origin", m[1])
		require.Empty(t, u.Host, "%s is same-origin", m[1])
		rest, ok := strings.CutPrefix(u.Path, "/playground/assets/")
		require.True(t, ok, "%s is one of the playground's assets", m[1])
		version, name, _ := strings.Cut(rest, "/")
		referenced[name] = true

		r := anonymous.Get(m[1])
		require.Equal(t, http.StatusOK, r.Status, m[1])
		require.Equal(t, types[path.Ext(name)], r.Header.Get("Content-Type"), m[1])
		require.Equal(t, "public, max-age=31536000, immutable", r.Header.Get("Cache-Control"), m[1])
		require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"), m[1])
		sum := sha256.Sum256(r.Body)
		got := hex.EncodeToString(sum[:])
		require.True(t, strings.HasPrefix(got, version), "%s: the URL is versioned by the content", m[1])
		require.Equal(t, `"`+got+`"`, r.Header.Get("ETag"), m[1])
		if want, ok := vendored[name]; ok {
			require.Equal(t, want, got, "%s: the bytes the manifest records", m[1])
		}

		stale := anonymous.Get("/playground/assets/0000000000000000/" + name)
		require.Equal(t, http.StatusNotFound, stale.Status, "another version of %s is not served", name)
	}
	for name := range vendored {
		if ext := path.Ext(name); ext == ".js" || ext == ".css" || strings.HasPrefix(name, "licenses/") {
			require.True(t, referenced[name], "the page uses (or links the licence) %s", name)
		}
	}
	for _, own := range []string{"playground.js", "playground.css"} {
		require.True(t, referenced[own], "the page loads %s", own)
	}

	// A revalidated page costs a 304.
	again := anonymous.Do(http.MethodGet, "/playground", nil, http.Header{"If-None-Match": {page.Header.Get("ETag")}})
	require.Equal(t, http.StatusNotModified, again.Status)
}

// With the playground off (serve --playground=false), neither the page nor
// its assets are served.
func TestPlaygroundOffServesNothing(t *testing.T) {
	t.Parallel()
	on := setup(t, withPlayground)
	asset := urlAttribute.FindStringSubmatch(string(on.sk.Get("/playground").Body))[1]
	require.Equal(t, http.StatusOK, on.sk.Get(asset).Status)

	off := setup(t)
	require.Equal(t, http.StatusNotFound, off.sk.Get("/playground").Status)
	require.Equal(t, http.StatusNotFound, off.sk.Get(asset).Status)
}

// defaultOperations reads the document the page opens GraphiQL with from
// its script (a JavaScript array of JSON strings), so that it is run here
// as the page would run it.
func defaultOperations(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("playground/page/playground.js")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(src), "var defaultQuery = [\n")
	require.True(t, ok, "playground.js declares defaultQuery")
	lines, _, ok := strings.Cut(rest, "].join(")
	require.True(t, ok)
	var doc []string
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		var s string
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(l), ",")), &s), l)
		doc = append(doc, s)
	}
	return strings.Join(doc, "\n")
}

// What the page does, done by hand: its query runs with the key as a
// Bearer header, and its subscription, over a websocket from the page's
// origin that carries the key only in its connection_init payload (a
// browser cannot set headers on a websocket), streams the live events.
func TestPlaygroundDefaultOperationsRunWithTheKey(t *testing.T) {
	t.Parallel()
	f := setup(t, withPlayground)
	doc := defaultOperations(t)

	r := f.sk.Post("/graphql", map[string]any{"query": doc, "operationName": "Accounts"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.NotContains(t, r.JSON(), "errors", string(r.Body))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.env.Server.URL, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
		HTTPHeader:   http.Header{"Origin": {f.env.Server.URL}},
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.CloseNow() })
	require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"type": "connection_init",
		"payload": map[string]any{"Authorization": "Bearer " + f.env.Keys.Sandbox.Secret}}))
	var ack wsMessage
	require.NoError(t, wsjson.Read(ctx, conn, &ack))
	require.Equal(t, "connection_ack", ack.Type, string(ack.Payload))
	require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe",
		"payload": map[string]any{"query": doc, "operationName": "Events"}}))
	s := &stream{msgs: make(chan wsMessage, 64)}
	go func() {
		defer close(s.msgs)
		for {
			var m wsMessage
			if err := wsjson.Read(context.Background(), conn, &m); err != nil {
				return // closed at cleanup
			}
			s.msgs <- m
		}
	}()

	// The subscription registers after "subscribe" with no answer: write
	// until the stream answers.
	created, m := untilStreaming(t, s, func() string { return f.sk.CreateAccount(testenv.Individual())["id"].(string) })
	require.Equal(t, "next", m.Type, string(m.Payload))
	var payload struct {
		Data struct {
			Events struct {
				ID, Type, Created string
				Data              struct{ Object map[string]any }
			}
		}
	}
	require.NoError(t, json.Unmarshal(m.Payload, &payload))
	ev := payload.Data.Events
	require.Equal(t, "account.created", ev.Type)
	require.NotEmpty(t, ev.ID)
	require.NotEmpty(t, ev.Created)
	require.True(t, created[ev.Data.Object["id"].(string)], "an event of the accounts just created")
}

func TestPlaygroundServesGraphiQLForTheEndpoint(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	graph.PlaygroundHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/playground", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Header().Get("Content-Type"), "text/html")
	body := rec.Body.String()
	require.Contains(t, body, "graphiql")
	require.Contains(t, body, "/graphql")
}
