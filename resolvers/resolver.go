// Package resolvers is gqlgen's root: the GraphQL resolvers (*.resolvers.go,
// generated and then filled in) only delegate to the operation layer, the
// services of the business areas in the sub-packages (accounts, webhooks,
// ...), which REST calls too. The helpers here map the services' results
// onto GraphQL shapes (connections) and declare each resource's dataloader
// and node lookup (*_graph.go). No business rule lives in this package.
package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
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

// batch is what a loader fetches with: a service's batched read (a
// family's ByIDs, a children edge's op.Batch), one V or error per id.
type batch[V any] = func(ctx context.Context, ids []string) ([]V, []error)

// loader declares a per-request loader of V by id, batched through the
// read the service provides. Each resource declares its own in its
// *_graph.go file, one line each:
//
//	refundLoader = nodeLoader("refund", func(r *Resolver) batch[*models.Refund] { return r.Svc.Money.Refunds.ByIDs })
func loader[V any](name string, fetch func(r *Resolver) batch[V]) loaders.Key[V] {
	k := loaders.NewKey[V](name)
	loaderDecls = append(loaderDecls, func(r *Resolver, reg *loaders.Registry) { loaders.Add(reg, k, loaders.Fetch[V](fetch(r))) })
	return k
}

// nodeLoader declares the loader of a node resource (loader) and that
// node(id:) finds it (node).
func nodeLoader[V model.Node](name string, fetch func(r *Resolver) batch[V]) loaders.Key[V] {
	k := loader(name, fetch)
	node(k)
	return k
}

// edgeDecls are the loader edges the resources declare (edge).
var edgeDecls []func(reg *loaders.Registry)

// edge declares that the GraphQL field of a *P loads through k by the key
// key gives ("" when the field is null without a read), as the field's
// resolver does: the graph's look-ahead then reads that edge for all the
// parents of a level in one batch before their fields run
// (loaders.LookAhead). One line per edge, beside the resource's loader.
func edge[P, V any](k loaders.Key[V], field string, key func(*P) string) bool {
	edgeDecls = append(edgeDecls, func(reg *loaders.Registry) { loaders.AddEdge(reg, k, field, key) })
	return true
}

// idKey is the key of an optional id: "" when there is none.
func idKey(id *uuid.UUID) string {
	if id == nil {
		return ""
	}
	return id.String()
}

// Loaders returns the registry of every declared loader over r's services,
// with the declared edges.
func (r *Resolver) Loaders() *loaders.Registry {
	reg := loaders.NewRegistry()
	for _, add := range loaderDecls {
		add(r, reg)
	}
	for _, add := range edgeDecls {
		add(reg)
	}
	return reg
}

// RootValue is what a root lookup by id finds after PrefetchRoots read it:
// node(id:) through the node loaders in findNode's order, a field named
// after a loader (account(id:)) through that loader. ok is false when the
// loaders do not hold the answer, or it is no object; the graph then
// looks ahead from the field once it has run.
func RootValue(ctx context.Context, field, id string) (v any, ok bool) {
	if field != "node" {
		v, cached, err := loaders.Cached(ctx, field, id)
		return v, cached && err == nil && v != nil
	}
	for _, name := range nodeLoaders {
		v, cached, err := loaders.Cached(ctx, name, id)
		switch {
		case !cached:
			return nil, false
		case err == nil:
			return v, v != nil
		case !noNode(err):
			return nil, false
		}
	}
	return nil, false
}
