package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/internal/platform/idempotency"
)

type keyCtx struct{}

// readIdempotencyKey keeps the request's Idempotency-Key header for the
// mutation fields (eachMutation).
func readIdempotencyKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if key := r.Header.Get(idempotency.Header); key != "" {
			r = r.WithContext(context.WithValue(r.Context(), keyCtx{}, key))
		}
		next.ServeHTTP(w, r)
	})
}

// eachMutation runs around every root mutation field, the one place where
// GraphQL writes are given what the write path needs and cleaned up after:
//
//   - The request's Idempotency-Key applies to each root mutation field
//     separately, as "<key>#<response name>" (the field's alias, or its
//     name), so a retried request with several mutations replays each of
//     them and a key is never shared by two different writes.
//   - The request's loader caches are emptied after each write, so that a
//     later field never sees an object as it was before the write.
func eachMutation(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Object != "Mutation" || !fc.IsResolver {
		return next(ctx)
	}
	defer loaders.ClearAll(ctx)
	if key, ok := ctx.Value(keyCtx{}).(string); ok {
		if err := idempotency.Validate(key); err != nil {
			return nil, err
		}
		ctx, _ = idempotency.With(ctx, key+"#"+fc.Field.Alias)
	}
	return next(ctx)
}
