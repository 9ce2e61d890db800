package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
)

type capabilitiesBody struct {
	Data []*models.Capability `json:"data"`
}

func (h *handlers) listCapabilities(w http.ResponseWriter, r *http.Request) {
	caps, err := h.res.ListCapabilities(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, capabilitiesBody{Data: caps}, err)
}

// requestCapabilities answers a bare array: 201 when at least one
// capability was created, 200 when none was (spec doc 1 §4.3).
func (h *handlers) requestCapabilities(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Capabilities []string `json:"capabilities"`
	}
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	caps, created, err := h.res.RequestCapabilities(r.Context(), chi.URLParam(r, "id"), in.Capabilities)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	respond(w, r, status, caps, err)
}

func (h *handlers) getCapability(w http.ResponseWriter, r *http.Request) {
	c, err := h.res.GetCapability(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}

func (h *handlers) disableCapability(w http.ResponseWriter, r *http.Request) {
	c, err := h.res.DisableCapability(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}

func (h *handlers) reactivateCapability(w http.ResponseWriter, r *http.Request) {
	c, err := h.res.ReactivateCapability(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "name"))
	respond(w, r, http.StatusOK, c, err)
}
