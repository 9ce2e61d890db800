package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/resolvers"
)

type handlers struct{ res *resolvers.Resolver }

// Routes mounts every documented /v1 path on r.
func Routes(r chi.Router, res *resolvers.Resolver) {
	h := &handlers{res: res}
	r = r.With(requireCredential)

	r.Route("/v1/accounts", func(r chi.Router) {
		r.Post("/", h.createAccount)
		r.Get("/", h.listAccounts)
		r.Get("/search", h.searchAccounts)
		r.Get("/{id}", h.getAccount)
		r.Patch("/{id}", h.updateAccount)
		r.Delete("/{id}", h.disableAccount)
		r.Post("/{id}/restrict", h.restrictAccount)
		r.Post("/{id}/unrestrict", h.unrestrictAccount)

		r.Get("/{id}/capabilities", h.listCapabilities)
		r.Post("/{id}/capabilities", h.requestCapabilities)
		r.Get("/{id}/capabilities/{name}", h.getCapability)
		r.Delete("/{id}/capabilities/{name}", h.disableCapability)
		r.Post("/{id}/capabilities/{name}/reactivate", h.reactivateCapability)
	})

	r.Get("/v1/events", h.listEvents)
	r.Get("/v1/events/{id}", h.getEvent)
}

// requireCredential answers an anonymous request 401 before its body is
// read: every route here needs a credential, and the caller must learn that
// first, not that its JSON is malformed. Which kind of credential may call
// an operation stays the resolvers' decision.
func requireCredential(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth.FromContext(r.Context()) == nil {
			_, err := auth.Require(r.Context())
			WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// NotFound answers unknown paths in the envelope.
func NotFound(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, &apierr.Error{Status: http.StatusNotFound, Code: "route_not_found",
		Message: "Unrecognized request URL (" + r.Method + " " + r.URL.Path + ")"})
}

// MethodNotAllowed answers a known path with the wrong method.
func MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, &apierr.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
		Message: "Method " + r.Method + " is not allowed on " + r.URL.Path})
}
