package subscriptions

import (
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is what the family's operations share: the kit, the invoices
// its subscriptions bill through, and its resources.
type Service struct {
	*op.Kit
	Invoices *invoiceBiller

	Subscriptions *Subscriptions
	ChangeLogs    *ChangeLogs
}

// invoiceBiller is the invoices family as a subscription bills through it
// (billSubscription, subscription_invoice.go).
type invoiceBiller struct{ *invoices.Invoices }

// New returns the family over kit, billing through inv, and registers on
// inv what paying a subscription's invoice does to the subscription.
func New(kit *op.Kit, inv *invoices.Service) *Service {
	s := &Service{Kit: kit, Invoices: &invoiceBiller{inv.Invoices}}
	s.Subscriptions, s.ChangeLogs = newSubscriptions(s), newChangeLogs(s)
	inv.Subscriptions = s.Subscriptions
	return s
}

// DueSources are the effects time causes on subscriptions
// (subscription_due.go), in the order they are asked.
func (s *Service) DueSources() []due.DueSource {
	return []due.DueSource{renewals{s}, retries{s}, resumes{s}}
}

// secretOnly is the credential kind of every operation of the family.
var secretOnly = []auth.Kind{auth.SecretKey}
