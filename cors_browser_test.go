package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// corsPage is a page another site could serve: its script calls the
// server at ?api= with the key of ?key= (a GraphQL query, a REST list, the
// OpenAPI document, and a request with a wrong key) and records what the
// browser let it read.
const corsPage = `<!doctype html><html><head><meta charset="utf-8"><title>another origin</title></head><body>
<script type="module">
const params = new URLSearchParams(location.search);
const api = params.get('api'), key = params.get('key');
async function attempt(name, path, init = {}) {
  try {
    const response = await fetch(api + path, init);
    return { name, ok: true, status: response.status, requestId: response.headers.get('Request-Id') ?? '',
      body: await response.json() };
  } catch (error) {
    return { name, ok: false, error: String(error) };
  }
}
const auth = (k) => ({ Authorization: 'Bearer ' + k, 'Content-Type': 'application/json' });
const results = await Promise.all([
  attempt('graphql', '/graphql', { method: 'POST', headers: auth(key),
    body: JSON.stringify({ query: '{ accounts(first: 1) { edges { node { id } } } }' }) }),
  attempt('rest', '/v1/accounts?per_page=1', { headers: auth(key) }),
  attempt('openapi', '/openapi.json'),
  attempt('refused', '/v1/accounts', { headers: auth('sk_sandbox_wrong') }),
]);
document.body.dataset.results = JSON.stringify(results);
document.body.dataset.done = 'true';
</script></body></html>`

// A page on another origin calls the API from Chromium: from the origin
// serve --cors-origins allows, /graphql, /v1 and /openapi.json answer it
// (their preflights included); from any other origin the browser refuses
// the page every answer (testdata/browser/cors.mjs).
func TestCrossOriginPagesInABrowser(t *testing.T) {
	t.Parallel()
	ensureBrowser(t)
	page := func() *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(corsPage))
		}))
		t.Cleanup(s.Close)
		return s
	}
	allowed, other := page(), page()

	u := &readmeUser{dir: dataDir(t), env: []string{"CORS_ORIGINS=" + allowed.URL}}
	m := u.createMerchant(t, "--name", "Cross Origin Platform", "--json")
	api := u.serve(t)
	key := m.APIKeys.Sandbox.Secret
	query := "?" + url.Values{"api": {api}, "key": {key}}.Encode()

	ctx, cancel := context.WithTimeout(context.Background(), browserGuard)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", filepath.Join(browserDir, "cors.mjs"))
	cmd.Env = append(os.Environ(), "ALLOWED_PAGE="+allowed.URL+"/"+query, "OTHER_PAGE="+other.URL+"/"+query)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("browser run:\n%s", out.String())
	require.NoError(t, err, "the browser run failed:\n%s", out.String())
	require.Contains(t, out.String(), "cors: ok", out.String())
}
