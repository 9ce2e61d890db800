package playground

import "net/http"

// contentSecurityPolicy lets the page load and run only what this server
// serves. Each directive beyond 'none' is what GraphiQL needs:
//
//   - script-src 'self': the vendored builds and the page's own script; no
//     inline script, and no 'unsafe-eval' (none of the builds evaluates
//     strings);
//   - style-src 'self': the vendored and page style sheets; React and
//     CodeMirror style elements through the CSSOM, which CSP leaves alone.
//     The one <style> element GraphiQL writes (its dialogs' scroll lock)
//     is refused, which the full-window page does not miss;
//   - font-src and img-src data:: GraphiQL's style sheet carries its
//     fonts and two icons as data: URLs, bytes of the vendored file itself;
//   - connect-src 'self': queries to the endpoint over HTTP and
//     subscriptions over its websocket (CSP 3's 'self' covers ws: and
//     wss: on the page's own host);
//   - nothing may frame the page, post a form or change its base URL.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"font-src 'self' data:; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Cache-Control of the page, revalidated on every load so that it always
// names the current assets, and of an asset, whose URL changes with its
// bytes.
const (
	pageCacheControl  = "no-cache"
	assetCacheControl = "public, max-age=31536000, immutable"
)

// setSecurityHeaders sets the headers every playground response carries.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
