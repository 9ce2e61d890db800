package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// ofAccount reads one of an account's children through its loader, as
// missing (404 for resource) when it belongs to another account: a path
// under one account never reaches another's rows, and the answer does not
// tell that the id exists elsewhere.
func ofAccount[V any](ctx context.Context, k loaders.Key[V], resource, accountID, id string, accountOf func(V) uuid.UUID) (V, error) {
	v, err := load(ctx, k, id)
	if err != nil {
		return v, err
	}
	if accountOf(v).String() != accountID {
		var none V
		return none, apierr.NotFound(resource, id)
	}
	return v, nil
}
