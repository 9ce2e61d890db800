package rest

import "github.com/frame-oss/payments-server/resolvers/merchant"

// viewerRoutes mounts GET /v1/me: the caller's merchant and mode, which
// the real service's CLI logs in with (API-DECISIONS §10). The CLI's
// update check, GET /v1/cli/latest_version, is left unrouted: its 404 makes
// the CLI skip the check, where any other answer could break it.
func viewerRoutes(r routes, svc *merchant.Service) {
	r.Get("/v1/me", read(svc.Viewer))
}
