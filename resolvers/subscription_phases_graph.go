package resolvers

import "github.com/frame-oss/payments-server/models"

// subscriptionPhaseLoader batches subscription phase reads (node(id:)).
// subscriptionPhasesLoader batches the phases of many subscriptions into
// one statement, keyed by subscription id, in ordinal order: the loader of
// Subscription.phases.
var (
	subscriptionPhaseLoader = nodeLoader("subscriptionPhase", func(r *Resolver) batch[*models.SubscriptionPhase] {
		return r.Svc.Catalog.SubscriptionPhases.ByIDs
	})
	subscriptionPhasesLoader = loader("subscriptionPhases", func(r *Resolver) batch[[]*models.SubscriptionPhase] {
		return r.Svc.Catalog.SubscriptionPhases.OfSubscriptions
	})
)
