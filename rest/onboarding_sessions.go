package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// onboardingSessionRoutes mounts /v1/onboarding_sessions (spec doc 1 §4.4).
func onboardingSessionRoutes(r chi.Router, svc *accounts.Onboarding) {
	h := onboardingHandlers{svc}
	r.Post("/v1/onboarding_sessions", create(h.svc.Create))
	r.Get("/v1/onboarding_sessions", h.ofAccount)
	r.Get("/v1/onboarding_sessions/bootstrap", h.bootstrap)
}

type onboardingHandlers struct{ svc *accounts.Onboarding }

func (h onboardingHandlers) ofAccount(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	accountID := q.str("account_id")
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	if accountID == nil {
		empty := ""
		accountID = &empty
	}
	s, err := h.svc.OfAccount(r.Context(), *accountID)
	respond(w, r, http.StatusOK, s, err)
}

func (h onboardingHandlers) bootstrap(w http.ResponseWriter, r *http.Request) {
	b, err := h.svc.Bootstrap(r.Context())
	respond(w, r, http.StatusOK, b, err)
}
