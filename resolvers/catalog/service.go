// Package catalog is the customers-and-catalog area of the operation
// layer: customers, products and their phases, coupons, promotion codes
// and discounts. REST and GraphQL call this Service's families; every rule
// of the area lives here or in the pure rules of internal/domain (phase,
// discount).
package catalog

import "github.com/frame-oss/payments-server/resolvers/op"

// Service is the area: one family per resource, each with its reads from
// the kit and its operations.
type Service struct {
	*op.Kit

	Customers *Customers
	Products  *Products
	Phases    *Phases
	// SubscriptionPhases are a subscription's own phases: the phase
	// family of products over the subscriptions table.
	SubscriptionPhases *SubscriptionPhases
	Coupons            *Coupons
	PromotionCodes     *PromotionCodes
	Discounts          *Discounts
}

// New returns the area's service over kit.
func New(kit *op.Kit) *Service {
	s := &Service{Kit: kit}
	s.Customers, s.Products, s.Phases = newCustomers(s), newProducts(s), newPhases(s)
	s.Coupons, s.PromotionCodes, s.Discounts = newCoupons(s), newPromotionCodes(s), newDiscounts(s)
	s.SubscriptionPhases = newSubscriptionPhases(s)
	return s
}
