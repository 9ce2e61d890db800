// Package playground serves GraphiQL from the server's own binary: the
// page, the browser builds of GraphiQL, React, ReactDOM and graphql-ws
// vendored from the npm registry (`make vendor-playground`), and the page's
// own script, which sends the API key of a field on the page with every
// request and runs subscriptions over the endpoint's websocket. Nothing is
// loaded from another host, so the playground works without internet.
package playground

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"
)

// Handler serves the playground page at base (e.g. "/playground") against
// the GraphQL endpoint (e.g. "/graphql"), and its assets under
// base+"/assets/". It panics when the embedded files are unusable, which
// only a broken build can cause (the tests build it).
func Handler(title, base, endpoint string) http.Handler {
	h, err := newHandler(title, base, endpoint)
	if err != nil {
		panic(err)
	}
	return h
}

type handler struct {
	base     string
	page     []byte
	pageETag string
	assets   map[string]asset
}

// licenceLink is a package's licence on the page.
type licenceLink struct{ Name, Version, URL string }

func newHandler(title, base, endpoint string) (*handler, error) {
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	manifest, err := ReadManifest()
	if err != nil {
		return nil, err
	}
	var licences []licenceLink
	for _, p := range manifest.Packages {
		name, ok := p.LicenseFile()
		a, found := assets[name]
		if !ok || !found {
			return nil, fmt.Errorf("playground: no licence text for %s", p.Name)
		}
		licences = append(licences, licenceLink{Name: p.Name, Version: p.Version, URL: a.path(base)})
		if b := p.BundledLicenses; b != nil {
			a, found := assets[b.Path]
			if !found {
				return nil, fmt.Errorf("playground: %s of %s is not embedded", b.Path, p.Name)
			}
			licences = append(licences, licenceLink{Name: "what " + p.Name + " bundles", URL: a.path(base)})
		}
	}
	tmpl, err := template.New(pageTemplate).Funcs(template.FuncMap{
		"asset": func(name string) (string, error) {
			a, ok := assets[name]
			if !ok {
				return "", fmt.Errorf("playground: the page names %s, which is not embedded", name)
			}
			return a.path(base), nil
		},
	}).ParseFS(files, pageDir+"/"+pageTemplate)
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	err = tmpl.Execute(&page, struct {
		Title, Endpoint string
		Licences        []licenceLink
	}{title, endpoint, licences})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(page.Bytes())
	return &handler{base: base, page: page.Bytes(), pageETag: hex.EncodeToString(sum[:]), assets: assets}, nil
}

// ServeHTTP serves the page at base and an asset at
// base/assets/<version>/<name>; an asset asked for under another version
// than its current one is not found (the page names the current ones).
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == h.base {
		serve(w, r, "text/html; charset=utf-8", pageCacheControl, h.pageETag, h.page)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, h.base+"/assets/")
	version, name, _ := strings.Cut(rest, "/")
	a, found := h.assets[name]
	if !ok || !found || version != a.version() {
		http.NotFound(w, r)
		return
	}
	serve(w, r, a.contentType, assetCacheControl, a.sha256, a.body)
}

// serve answers body with its type, cache policy and its sha256 as ETag
// (so a revalidated page costs a 304), plus the security headers.
func serve(w http.ResponseWriter, r *http.Request, contentType, cacheControl, sha string, body []byte) {
	h := w.Header()
	setSecurityHeaders(h)
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", cacheControl)
	h.Set("ETag", `"`+sha+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}
