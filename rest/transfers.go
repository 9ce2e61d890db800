package rest

import (
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// transferRoutes mounts /v1/transfers and GET /v2/transfers/{id}
// (API-DECISIONS §4).
func transferRoutes(r routes, svc *money.Service) {
	h := transferHandlers{svc.Transfers}
	r.Post("/v1/transfers", handled(h.create, wireShape{body: reflect.TypeFor[models.CreateTransferInput](),
		responses: ok[*models.Transfer](http.StatusCreated)}))
	r.Get("/v1/transfers", list(h.svc.List))
	r.Get("/v1/transfers/{id}", get(h.svc.Get))
	r.Get("/v2/transfers/{id}", handled(h.getV2, wireShape{responses: ok[*models.TransferV2](http.StatusOK)}))
	r.Patch("/v1/transfers/{id}", update(h.svc.Update))
	r.Post("/v1/transfers/{id}/confirm", handled(h.confirm, wireShape{responses: ok[*models.Transfer](http.StatusOK)}))
	r.Post("/v1/transfers/{id}/capture", update(h.svc.Capture))
	r.Post("/v1/transfers/{id}/cancel", action(h.svc.Cancel))
	r.Post("/v1/test_helpers/transfers/{id}/complete_3d_secure", action(h.svc.CompleteThreeDSecure))
	r.Post("/v1/checkout_sessions", create(svc.CheckoutSessions.Create))
}

// transferHandlers serve the transfer family's browser-facing answers.
type transferHandlers struct{ svc *money.Transfers }

func (h transferHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateTransferInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	t, err := h.svc.Create(r.Context(), &in)
	respondBrowser(w, r, http.StatusCreated, t, err)
}

func (h transferHandlers) getV2(w http.ResponseWriter, r *http.Request) {
	t, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		WriteError(w, r, err)
		return
	}
	respond(w, r, http.StatusOK, models.TransferV2Of(t), nil)
}

func (h transferHandlers) confirm(w http.ResponseWriter, r *http.Request) {
	t, err := h.svc.Confirm(r.Context(), chi.URLParam(r, "id"))
	respondBrowser(w, r, http.StatusOK, t, err)
}

// respondBrowser answers a transfer, except that under a chk_sess_ secret
// a declined charge arrives as an error (API-DECISIONS §9): 402, the
// decline code, and details.transfer_id. The decline itself is recorded
// (committed, and replayed under the same Idempotency-Key) like any other.
func respondBrowser(w http.ResponseWriter, r *http.Request, status int, t *models.Transfer, err error) {
	if err == nil {
		err = money.BrowserDecline(r.Context(), t)
	}
	respond(w, r, status, t, err)
}
