package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// The SDK's sessions are nodes loaded in batches; a session's charge
// intent or customer loads through its own loader.
var (
	chargeSessionLoader = nodeLoader("chargeSession", func(r *Resolver) batch[*models.ChargeSession] { return r.Svc.Money.ChargeSessions.ByIDs })
	sonarSessionLoader  = nodeLoader("sonarSession", func(r *Resolver) batch[*models.SonarSession] { return r.Svc.Money.SonarSessions.ByIDs })

	paymentLinkSessionLoader = nodeLoader("paymentLinkSession", func(r *Resolver) batch[*models.PaymentLinkSession] {
		return r.Svc.Money.PaymentLinkSessions.ByIDs
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(chargeIntentLoader, "chargeIntent", func(s *models.ChargeSession) string { return idKey(s.ChargeIntentID) })
	_ = edge(chargeIntentLoader, "chargeIntent", func(s *models.SonarSession) string { return idKey(s.ChargeIntentID) })
	_ = edge(customerLoader, "customer", func(s *models.PaymentLinkSession) string { return idKey(s.CustomerID) })
)
