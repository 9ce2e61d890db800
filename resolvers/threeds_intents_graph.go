package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// 3-D Secure intents are nodes loaded in batches; an intent's card and
// customer load through their own loaders.
var (
	threeDSIntentLoader = nodeLoader("threeDSIntent", func(r *Resolver) batch[*models.ThreeDSIntent] { return r.Svc.Money.ThreeDSIntents.ByIDs })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(customerLoader, "customer", func(i *models.ThreeDSIntent) string { return idKey(i.CustomerID) })
	_ = edge(paymentMethodLoader, "paymentMethod", func(i *models.ThreeDSIntent) string { return i.PaymentMethodID.String() })
)
