package resolvers

import "github.com/frame-oss/payments-server/models"

// subscriptionPhaseLoader batches subscription phase reads (node(id:)); a
// subscription's phases come with it (Subscription.phases).
var subscriptionPhaseLoader = nodeLoader("subscriptionPhase", func(r *Resolver) batch[*models.SubscriptionPhase] {
	return r.Svc.Catalog.SubscriptionPhases.ByIDs
})
