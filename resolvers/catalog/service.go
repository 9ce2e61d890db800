// Package catalog is the customers-and-catalog area of the operation
// layer: customers, products and their phases, coupons, promotion codes
// and discounts. REST and GraphQL call this Service; every rule of the area
// lives here or in the pure rules of internal/domain (phase, discount).
//
// Files: one small set per resource — customer_*.go, product_*.go,
// phase_*.go, coupon_*.go, promotion_code_*.go, discount_*.go — plus
// events.go (the event names the area emits).
package catalog

import "github.com/frame-oss/payments-server/resolvers/op"

// Service runs the area's operations.
type Service struct{ *op.Kit }

// New returns the area's service over kit.
func New(kit *op.Kit) *Service { return &Service{Kit: kit} }
