// Package webhooks is the events-and-webhooks area of the operation layer:
// the event log every write appends to (and, as they are built, webhook
// endpoints and deliveries).
package webhooks

import "github.com/frame-oss/payments-server/resolvers/op"

// Service runs the area's operations.
type Service struct{ *op.Kit }

// New returns the area's service over kit.
func New(kit *op.Kit) *Service { return &Service{Kit: kit} }
