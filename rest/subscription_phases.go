package rest

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// subscriptionPhaseRoutes mounts /v1/subscriptions/{id}/phases (spec doc 2
// §4.4). DELETE answers 204 as the spec says (the SDK expects a deleted
// object; docs/decisions.md).
func subscriptionPhaseRoutes(r routes, svc *catalog.Service) {
	phases := svc.SubscriptionPhases
	r.Get("/v1/subscriptions/{id}/phases", phaseList(phases.List, subscriptionPhasesBodyOf))
	r.Post("/v1/subscriptions/{id}/phases", createIn(phases.Create))
	r.Patch("/v1/subscriptions/{id}/phases/bulk_update", phaseBulkUpdate(phases.BulkUpdate, subscriptionPhasesBodyOf))
	r.Get("/v1/subscriptions/{id}/phases/{phase}", getOf("phase", phases.Get))
	r.Patch("/v1/subscriptions/{id}/phases/{phase}", updateOf("phase", phases.Update))
	r.Delete("/v1/subscriptions/{id}/phases/{phase}", deleteOf("phase", phases.Delete))
}

// subscriptionPhasesBody is the {meta {subscription_id[, updated_count]},
// phases} body, with the phases under "data" too (phasesBody).
type subscriptionPhasesBody struct {
	Meta   subscriptionPhasesMeta      `json:"meta"`
	Phases []*models.SubscriptionPhase `json:"phases"`
	Data   []*models.SubscriptionPhase `json:"data"`
}

type subscriptionPhasesMeta struct {
	models.ListMeta
	SubscriptionID string `json:"subscription_id"`
	UpdatedCount   *int   `json:"updated_count,omitempty"`
}

func subscriptionPhasesBodyOf(list models.ListMeta, subscriptionID string, updated *int,
	phases []*models.SubscriptionPhase) subscriptionPhasesBody {
	return subscriptionPhasesBody{Meta: subscriptionPhasesMeta{ListMeta: list, SubscriptionID: subscriptionID,
		UpdatedCount: updated}, Phases: phases, Data: phases}
}
