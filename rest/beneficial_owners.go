package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// beneficialOwnerRoutes mounts /v1/accounts/{id}/beneficial_owners (spec
// doc 1 §4.2).
func beneficialOwnerRoutes(r chi.Router, svc *accounts.Owners) {
	h := ownerHandlers{svc}
	r.Get("/v1/accounts/{id}/beneficial_owners", h.list)
	r.Post("/v1/accounts/{id}/beneficial_owners", h.create)
	r.Post("/v1/accounts/{id}/beneficial_owners/confirm", action(h.svc.Confirm))
	r.Get("/v1/accounts/{id}/beneficial_owners/{owner}", h.get)
	r.Patch("/v1/accounts/{id}/beneficial_owners/{owner}", h.update)
	r.Delete("/v1/accounts/{id}/beneficial_owners/{owner}", h.delete)
	r.Post("/v1/accounts/{id}/beneficial_owners/{owner}/resend_invite", h.resend)
}

type ownerHandlers struct{ svc *accounts.Owners }

type ownersBody struct {
	Data []*models.BeneficialOwner `json:"data"`
}

func (h ownerHandlers) list(w http.ResponseWriter, r *http.Request) {
	owners, err := h.svc.List(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, ownersBody{Data: owners}, err)
}

func (h ownerHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateBeneficialOwnerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	o, err := h.svc.Create(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusCreated, o, err)
}

func (h ownerHandlers) get(w http.ResponseWriter, r *http.Request) {
	o, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "owner"))
	respond(w, r, http.StatusOK, o, err)
}

func (h ownerHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateBeneficialOwnerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	o, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "owner"), &in)
	respond(w, r, http.StatusOK, o, err)
}

func (h ownerHandlers) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Delete(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "owner")); err != nil {
		WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h ownerHandlers) resend(w http.ResponseWriter, r *http.Request) {
	o, err := h.svc.ResendInvite(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "owner"))
	respond(w, r, http.StatusOK, o, err)
}
