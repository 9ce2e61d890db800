// Package resolvers is gqlgen's root: the GraphQL resolvers (*.resolvers.go,
// generated and then filled in) only delegate to the operation layer, the
// services of the business areas in the sub-packages (accounts, webhooks,
// ...), which REST calls too. The helpers here map the services' results
// onto GraphQL shapes (connections) and declare each resource's dataloader
// and node lookup (*_graph.go). No business rule lives in this package.
package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/areas"
)

// Resolver is the root of the GraphQL resolvers: the services they call.
// (A named field, not embedded: root query fields such as `accounts` would
// otherwise shadow the services of the same name.)
type Resolver struct {
	Svc areas.Services
	// Authenticate resolves a credential sent in a websocket's
	// connection_init payload (browsers cannot set headers on a websocket);
	// nil accepts only the upgrade request's Authorization header.
	Authenticate func(ctx context.Context, credential string) (*auth.Principal, error)
}

// loaderDecls are the dataloaders the resources declare (loader).
var loaderDecls []func(r *Resolver, reg *loaders.Registry)

// loader declares a per-request loader of V by id, batched through the
// fetch the service provides. Each resource declares its own in its
// *_graph.go file.
func loader[V any](name string, fetch func(r *Resolver) loaders.Fetch[V]) loaders.Key[V] {
	k := loaders.NewKey[V](name)
	loaderDecls = append(loaderDecls, func(r *Resolver, reg *loaders.Registry) { loaders.Add(reg, k, fetch(r)) })
	return k
}

// Loaders returns the registry of every declared loader over r's services.
func (r *Resolver) Loaders() *loaders.Registry {
	reg := loaders.NewRegistry()
	for _, add := range loaderDecls {
		add(r, reg)
	}
	return reg
}
