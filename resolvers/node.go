package resolvers

import (
	"context"
	"errors"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
)

// nodeFinder finds one resource by id for node(id:), through its loader.
type nodeFinder func(ctx context.Context, id string) (model.Node, error)

// nodeFinders are tried in declaration order; ids are UUIDs of one space,
// so at most one finds an id. nodeLoaders are their loaders' names, in the
// same order.
var (
	nodeFinders []nodeFinder
	nodeLoaders []string
)

// node declares that the resource loaded by k is found by node(id:).
func node[V model.Node](k loaders.Key[V]) bool {
	nodeLoaders = append(nodeLoaders, k.Name())
	nodeFinders = append(nodeFinders, func(ctx context.Context, id string) (model.Node, error) {
		v, err := load(ctx, k, id)
		if err != nil {
			return nil, err
		}
		return v, nil
	})
	return true
}

// load reads id through the request's loader of k.
func load[V any](ctx context.Context, k loaders.Key[V], id string) (V, error) {
	v, ok, err := k.Load(ctx, id)
	if !ok {
		return v, apierr.Internal(errors.New("resolvers: no dataloaders in the request context"))
	}
	return v, err
}

// findNode tries every declared resource. An unknown id, or one the
// credential may not see or read, is no node (null), never an error.
func findNode(ctx context.Context, id string) (model.Node, error) {
	for _, find := range nodeFinders {
		v, err := find(ctx, id)
		if err == nil {
			return v, nil
		}
		if !noNode(err) {
			return nil, err
		}
	}
	return nil, nil
}

// noNode reports whether a finder's error means "not this kind of node".
func noNode(err error) bool {
	e := apierr.As(err)
	return e != nil && (e.Code == apierr.CodeResourceMissing || e.Code == apierr.CodeForbidden)
}

// PrefetchRoots reads, before a query's root fields run, every id its root
// lookups ask for, one batch per loader: node(id:) through the node
// loaders in findNode's order (each reading the ids the previous ones did
// not find), and a root field whose only argument is id and which is named
// after a loader (account(id:), event(id:)) through that loader. lookups
// maps a root field's name to the ids of its occurrences (aliases). The
// fields then find their objects, or errors, in the loaders' caches: N
// aliased lookups run the statements one does, however the executor
// schedules them. Fields named after no loader are left alone.
func PrefetchRoots(ctx context.Context, lookups map[string][]string) {
	for field, idList := range lookups {
		if field == "node" {
			prefetchNodes(ctx, idList)
			continue
		}
		loaders.Prefetch(ctx, field, idList)
	}
}

func prefetchNodes(ctx context.Context, idList []string) {
	var remaining []string
	for _, id := range idList {
		if _, ok := ids.Parse(id); ok { // Node answers null for a malformed id
			remaining = append(remaining, id)
		}
	}
	for _, name := range nodeLoaders {
		if len(remaining) == 0 {
			return
		}
		errs, ok := loaders.Prefetch(ctx, name, remaining)
		if !ok {
			return
		}
		var next []string
		for i, id := range remaining {
			if errs[i] != nil && noNode(errs[i]) {
				next = append(next, id)
			}
		}
		remaining = next
	}
}
