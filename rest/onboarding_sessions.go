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
	// The same sessions under the path family the real service's SDK
	// calls (OnboardingAPI), in its shape (docs/decisions.md).
	r.Post("/v1/onboarding/sessions", create(h.svc.SDKCreate))
	r.Get("/v1/onboarding/sessions", h.sdkList)
	r.Get("/v1/onboarding/sessions/{id}", get(h.svc.SDKGet))
	r.Patch("/v1/onboarding/sessions/{id}", update(h.svc.SDKUpdate))
	r.Post("/v1/onboarding/sessions/{id}/payout", update(h.svc.SDKPayout))
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

func (h onboardingHandlers) sdkList(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	flt := accounts.SDKOnboardingFilter{AccountID: q.str("account_id"), CustomerID: q.str("customer_id"),
		Status: q.str("status"), Limit: q.intParam("limit", 1), StartingAfter: q.str("starting_after")}
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	v, err := h.svc.SDKList(r.Context(), flt)
	respond(w, r, http.StatusOK, v, err)
}
