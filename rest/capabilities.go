package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// capabilityRoutes mounts /v1/accounts/{id}/capabilities (spec doc 1 §4.3).
func capabilityRoutes(r chi.Router, svc *accounts.Capabilities) {
	h := capabilityHandlers{svc}
	r.Get("/v1/accounts/{id}/capabilities", h.list)
	r.Post("/v1/accounts/{id}/capabilities", h.request)
	r.Get("/v1/accounts/{id}/capabilities/{name}", h.get)
	r.Delete("/v1/accounts/{id}/capabilities/{name}", h.disable)
	r.Post("/v1/accounts/{id}/capabilities/{name}/reactivate", h.reactivate)
}

type capabilityHandlers struct{ svc *accounts.Capabilities }

type capabilitiesBody struct {
	Data []*models.Capability `json:"data"`
}

func (h capabilityHandlers) list(w http.ResponseWriter, r *http.Request) {
	caps, err := h.svc.List(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, capabilitiesBody{Data: caps}, err)
}

// request answers a bare array: 201 when at least one capability was
// created, 200 when none was (spec doc 1 §4.3).
func (h capabilityHandlers) request(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Capabilities []string `json:"capabilities"`
	}
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.Request(r.Context(), chi.URLParam(r, "id"), in.Capabilities)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if res.Created {
		status = http.StatusCreated
	}
	writeJSON(w, status, res.Capabilities)
}

func (h capabilityHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}

func (h capabilityHandlers) disable(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Disable(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}

func (h capabilityHandlers) reactivate(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Reactivate(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}
