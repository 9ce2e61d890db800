package rest

import (
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// capabilityRoutes mounts /v1/accounts/{id}/capabilities (spec doc 1 §4.3).
func capabilityRoutes(r routes, svc *accounts.Capabilities) {
	r.Get("/v1/accounts/{id}/capabilities", dataOf(svc.List))
	r.Post("/v1/accounts/{id}/capabilities", requestCapabilities(svc))
	r.Get("/v1/accounts/{id}/capabilities/{name}", getOf("name", svc.Get))
	r.Delete("/v1/accounts/{id}/capabilities/{name}", getOf("name", svc.Disable))
	r.Post("/v1/accounts/{id}/capabilities/{name}/reactivate", getOf("name", svc.Reactivate))
}

// requestCapabilities answers a bare array: 201 when at least one
// capability was created, 200 when none was (spec doc 1 §4.3).
func requestCapabilities(svc *accounts.Capabilities) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		var in capabilitiesBody
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		res, err := svc.Request(r.Context(), chi.URLParam(r, "id"), in.Capabilities)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		status := http.StatusOK
		if res.Created {
			status = http.StatusCreated
		}
		writeJSON(w, status, res.Capabilities)
	}, wireShape{body: reflect.TypeFor[capabilitiesBody](), responses: []answer{
		{http.StatusCreated, reflect.TypeFor[[]*models.Capability]()}, {http.StatusOK, reflect.TypeFor[[]*models.Capability]()}}})
}

// capabilitiesBody names the capabilities to request.
type capabilitiesBody struct {
	Capabilities []string `json:"capabilities"`
}
