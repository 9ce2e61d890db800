package resolvers

import (
	"context"
	"errors"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// nodeFinder finds one resource by id for node(id:), through its loader.
type nodeFinder func(ctx context.Context, id string) (model.Node, error)

// nodeFinders are tried in declaration order; ids are UUIDs of one space,
// so at most one finds an id.
var nodeFinders []nodeFinder

// node declares that the resource loaded by k is found by node(id:).
func node[V model.Node](k loaders.Key[V]) bool {
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
		if e := apierr.As(err); e == nil || (e.Code != apierr.CodeResourceMissing && e.Code != apierr.CodeForbidden) {
			return nil, err
		}
	}
	return nil, nil
}
