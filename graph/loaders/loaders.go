// Package loaders holds the per-request dataloaders of the GraphQL
// transport (graph-gophers/dataloader/v7). Every edge that points at another
// object (node(id:), account(id:), Capability.account, ...) loads through
// them, so a query's SQL statement count depends on its shape, never on the
// data.
//
// Loaders are declared per resource, not listed here: a resource declares a
// Key and adds its batch function to the Registry (resolvers/*_graph.go).
// The batch functions are the operation layer's batched reads, which
// authorize the caller and apply field visibility exactly as the single
// reads do.
package loaders

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"
)

// Wait is how long a loader collects keys before it runs its batch. The
// executor resolves sibling fields concurrently, so a short window gathers
// every key of one level of the query.
const Wait = 5 * time.Millisecond

// MaxBatch is the most keys one batch carries; a full batch runs at once.
const MaxBatch = 100

// Fetch is a batched read: one value or one error per id, in id order.
type Fetch[V any] func(ctx context.Context, ids []string) ([]V, []error)

// Key names one kind of loader and the type it loads.
type Key[V any] struct{ name string }

// NewKey declares a loader kind.
func NewKey[V any](name string) Key[V] { return Key[V]{name: name} }

// Registry holds the batch function of every declared loader.
type Registry struct {
	batches map[string]dataloader.BatchFunc[string, any]
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{batches: map[string]dataloader.BatchFunc[string, any]{}}
}

// Add registers fetch as the batch function of k's loaders.
func Add[V any](r *Registry, k Key[V], fetch Fetch[V]) {
	r.batches[k.name] = func(ctx context.Context, keys []string) []*dataloader.Result[any] {
		vals, errs := fetch(ctx, keys)
		out := make([]*dataloader.Result[any], len(keys))
		for i := range keys {
			res := &dataloader.Result[any]{}
			if i < len(vals) {
				res.Data = vals[i]
			}
			if i < len(errs) {
				res.Error = errs[i]
			}
			out[i] = res
		}
		return out
	}
}

// set is one request's loaders, made on first use.
type set struct {
	reg *Registry
	mu  sync.Mutex
	m   map[string]*dataloader.Loader[string, any]
}

func (s *set) loader(name string) *dataloader.Loader[string, any] {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.m[name]
	if !ok {
		batch, known := s.reg.batches[name]
		if !known {
			panic("loaders: no loader registered for " + name)
		}
		l = dataloader.NewBatchedLoader(batch, dataloader.WithWait[string, any](Wait),
			dataloader.WithBatchCapacity[string, any](MaxBatch))
		s.m[name] = l
	}
	return l
}

type ctxKey struct{}

func from(ctx context.Context) *set {
	s, _ := ctx.Value(ctxKey{}).(*set)
	return s
}

// Load reads id through the request's loader of k. ok is false outside a
// GraphQL request (no loaders), where the caller reads directly.
func (k Key[V]) Load(ctx context.Context, id string) (v V, ok bool, err error) {
	s := from(ctx)
	if s == nil {
		return v, false, nil
	}
	got, err := s.loader(k.name).Load(ctx, id)()
	if got != nil {
		v, _ = got.(V)
	}
	return v, true, err
}

// Prime puts a value a list already read into the request's loader of k,
// so that edges back to it cost no statement.
func (k Key[V]) Prime(ctx context.Context, id string, v V) {
	if s := from(ctx); s != nil {
		s.loader(k.name).Prime(ctx, id, v)
	}
}

// ClearAll empties every loader cache of the request, after a write, so
// that a later field never sees an object as it was before the write.
func ClearAll(ctx context.Context) {
	s := from(ctx)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.m {
		l.ClearAll()
	}
}

// Middleware gives every request fresh loaders over reg.
func Middleware(reg *Registry, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := &set{reg: reg, m: map[string]*dataloader.Loader[string, any]{}}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, s)))
	})
}
