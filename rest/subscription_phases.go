package rest

import (
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// subscriptionPhaseRoutes mounts /v1/subscriptions/{id}/phases (spec doc 2
// §4.4). DELETE answers 204 as the spec says (the SDK expects a deleted
// object; docs/decisions.md).
func subscriptionPhaseRoutes(r routes, svc *catalog.Service) {
	h := subscriptionPhaseHandlers{svc.SubscriptionPhases}
	r.Get("/v1/subscriptions/{id}/phases", handled(h.list, wireShape{responses: ok[subscriptionPhasesBody](http.StatusOK)}))
	r.Post("/v1/subscriptions/{id}/phases", createIn(h.svc.Create))
	r.Patch("/v1/subscriptions/{id}/phases/bulk_update", handled(h.bulkUpdate,
		wireShape{body: reflect.TypeFor[models.BulkUpdateSubscriptionPhasesInput](), responses: ok[subscriptionPhasesBody](http.StatusOK)}))
	r.Get("/v1/subscriptions/{id}/phases/{phase}", getOf("phase", h.svc.Get))
	r.Patch("/v1/subscriptions/{id}/phases/{phase}", updateOf("phase", h.svc.Update))
	r.Delete("/v1/subscriptions/{id}/phases/{phase}", deleteOf("phase", h.svc.Delete))
}

type subscriptionPhaseHandlers struct{ svc *catalog.SubscriptionPhases }

// subscriptionPhasesBody is the {meta {subscription_id[, updated_count]},
// phases} body.
type subscriptionPhasesBody struct {
	Meta   subscriptionPhasesMeta      `json:"meta"`
	Phases []*models.SubscriptionPhase `json:"phases"`
}

type subscriptionPhasesMeta struct {
	SubscriptionID string `json:"subscription_id"`
	UpdatedCount   *int   `json:"updated_count,omitempty"`
}

func (h subscriptionPhaseHandlers) list(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	phases, err := h.svc.List(r.Context(), id)
	respond(w, r, http.StatusOK, subscriptionPhasesBody{Meta: subscriptionPhasesMeta{SubscriptionID: id}, Phases: phases}, err)
}

func (h subscriptionPhaseHandlers) bulkUpdate(w http.ResponseWriter, r *http.Request) {
	var in models.BulkUpdateSubscriptionPhasesInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	phases, n, err := h.svc.BulkUpdate(r.Context(), id, &in)
	respond(w, r, http.StatusOK, subscriptionPhasesBody{Meta: subscriptionPhasesMeta{SubscriptionID: id, UpdatedCount: &n}, Phases: phases}, err)
}
