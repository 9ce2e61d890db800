// Package loaders holds the per-request dataloaders of the GraphQL
// transport (graph-gophers/dataloader/v7). Every edge that points at another
// object (node(id:), account(id:), Capability.account) loads through them,
// so a query's SQL statement count depends on its shape, never on the data.
//
// The loaders know nothing of the database: their batch functions are the
// operation layer's batched reads (Source), which authorize the caller and
// apply field visibility exactly as the single reads do.
package loaders

import (
	"context"
	"net/http"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/frame-oss/payments-server/models"
)

// Source is what the loaders read through: batched reads that answer one
// value or one error per key, in key order.
type Source interface {
	AccountsByIDs(ctx context.Context, ids []string) ([]*models.Account, []error)
	CapabilitiesByIDs(ctx context.Context, ids []string) ([]*models.Capability, []error)
}

// Wait is how long a loader collects keys before it runs its batch. The
// executor resolves sibling fields concurrently, so a short window gathers
// every key of one level of the query.
const Wait = 5 * time.Millisecond

// MaxBatch is the most keys one batch carries; a full batch runs at once.
const MaxBatch = 100

// Loaders are one request's loaders. Their caches live as long as the
// request, so a value read twice in one query is read once.
type Loaders struct {
	Account    *dataloader.Loader[string, *models.Account]
	Capability *dataloader.Loader[string, *models.Capability]
}

// New makes a request's loaders over src.
func New(src Source) *Loaders {
	return &Loaders{
		Account: dataloader.NewBatchedLoader(batch(src.AccountsByIDs),
			dataloader.WithWait[string, *models.Account](Wait), dataloader.WithBatchCapacity[string, *models.Account](MaxBatch)),
		Capability: dataloader.NewBatchedLoader(batch(src.CapabilitiesByIDs),
			dataloader.WithWait[string, *models.Capability](Wait), dataloader.WithBatchCapacity[string, *models.Capability](MaxBatch)),
	}
}

func batch[V any](fetch func(context.Context, []string) ([]V, []error)) dataloader.BatchFunc[string, V] {
	return func(ctx context.Context, keys []string) []*dataloader.Result[V] {
		vals, errs := fetch(ctx, keys)
		out := make([]*dataloader.Result[V], len(keys))
		for i := range keys {
			r := &dataloader.Result[V]{}
			if i < len(vals) {
				r.Data = vals[i]
			}
			if i < len(errs) {
				r.Error = errs[i]
			}
			out[i] = r
		}
		return out
	}
}

type ctxKey struct{}

// With attaches l to ctx.
func With(ctx context.Context, l *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From returns the request's loaders, or nil outside a GraphQL request.
func From(ctx context.Context) *Loaders {
	l, _ := ctx.Value(ctxKey{}).(*Loaders)
	return l
}

// Middleware gives every request fresh loaders over src.
func Middleware(src Source, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(With(r.Context(), New(src))))
	})
}
