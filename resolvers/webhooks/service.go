// Package webhooks is the events-and-webhooks area of the operation layer:
// the event log every write appends to, webhook endpoints, and the delivery
// of events to them (signed POSTs run as River jobs, every attempt
// recorded). docs/webhooks.md describes it for integrators.
package webhooks

import (
	"context"
	"net"
	"net/netip"
	"sync"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Resolver looks up the addresses of a host (net.DefaultResolver). Tests
// and the operator can replace it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Service runs the area's operations.
type Service struct {
	*op.Kit
	// The area's resource families.
	Endpoints    *Endpoints
	Deliveries   *Deliveries
	Events       *Events
	Listen       *ListenSessions
	resolver     Resolver
	destinations webhook.Destinations

	// The process's listeners, each started by its first subscriber: the
	// event stream's and the listen sessions'.
	hubMu       sync.Mutex
	eventNotes  *notify.Hub[store.Scope, uuid.UUID]
	listenNotes *notify.Hub[uuid.UUID, listenNote]
}

// New returns the area's service over kit.
func New(kit *op.Kit) *Service {
	s := &Service{Kit: kit, resolver: net.DefaultResolver}
	s.Endpoints, s.Deliveries, s.Events = newEndpoints(s), newDeliveries(s), newEvents(s)
	s.Listen = newListenSessions(s)
	return s
}

// UseResolver replaces the resolver that checks endpoint hosts at create
// and update (tests; an operator's own DNS).
func (s *Service) UseResolver(r Resolver) { s.resolver = r }

// UseDestinations sets where endpoints may point (the zero value: public
// addresses only, in both modes). Call it before serving.
func (s *Service) UseDestinations(d webhook.Destinations) { s.destinations = d }
