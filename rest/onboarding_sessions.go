package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// onboardingSessionRoutes mounts /v1/onboarding_sessions (spec doc 1 §4.4).
func onboardingSessionRoutes(r routes, svc *accounts.Onboarding) {
	h := onboardingHandlers{svc}
	r.Post("/v1/onboarding_sessions", create(h.svc.Create))
	r.Get("/v1/onboarding_sessions", handled(h.ofAccount, wireShape{query: params(false, "account_id"),
		responses: []answer{{http.StatusOK, returnedBy(h.svc.OfAccountWithSecret)}}}))
	r.Get("/v1/onboarding_sessions/bootstrap", handled(h.bootstrap, wireShape{responses: ok[*models.OnboardingBootstrap](http.StatusOK)}))
	// The same sessions under the path family the real service's SDK
	// calls (OnboardingAPI), in its shape (docs/decisions.md).
	r.Post("/v1/onboarding/sessions", create(h.svc.SDKCreate))
	r.Get("/v1/onboarding/sessions", handled(h.sdkList, wireShape{query: append(params(false, "account_id", "customer_id", "status", "starting_after"),
		queryParam{name: "limit", kind: "integer"}), responses: []answer{{http.StatusOK, returnedBy(h.svc.SDKList)}}}))
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
	s, err := h.svc.OfAccountWithSecret(r.Context(), *accountID)
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
