package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// threeDSIntentRoutes mounts /v1/3ds/intents (spec doc 2 §4.10) and the
// sandbox's stand-in for the cardholder answering a challenge.
func threeDSIntentRoutes(r chi.Router, svc *money.ThreeDSIntents) {
	h := threeDSIntentHandlers{svc}
	r.Post("/v1/3ds/intents", h.create)
	r.Get("/v1/3ds/intents/{id}", h.get)
	r.Post("/v1/3ds/intents/{id}/resend", h.resend)
	r.Post("/v1/test_helpers/3ds/intents/{id}/complete", h.complete)
}

type threeDSIntentHandlers struct{ svc *money.ThreeDSIntents }

func (h threeDSIntentHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateThreeDSIntentInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	i, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, i, err)
}

func (h threeDSIntentHandlers) get(w http.ResponseWriter, r *http.Request) {
	i, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, i, err)
}

func (h threeDSIntentHandlers) resend(w http.ResponseWriter, r *http.Request) {
	i, err := h.svc.Resend(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, i, err)
}

func (h threeDSIntentHandlers) complete(w http.ResponseWriter, r *http.Request) {
	i, err := h.svc.Complete(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, i, err)
}
