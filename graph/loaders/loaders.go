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
	"errors"
	"net/http"
	"reflect"
	"sync"

	"github.com/graph-gophers/dataloader/v7"
)

// A loader batches nothing by waiting: a key that is not in the request's
// cache when a field asks for it is read at once, on its own (a batch of
// capacity one). Batching comes from looking ahead instead (LookAhead):
// when a field resolves, every loader edge below it is read for all of its
// objects in one batch per loader and level, before gqlgen resolves the
// objects one by one, so the fields find their values in the cache. A
// statement count is then a constant of the query's shape however the
// executor's goroutines are scheduled, and no request waits for a timer.
// (A loader that waited a few milliseconds for more keys split a batch in
// two whenever a loaded machine delayed a goroutine past its window, and
// made every level of a query wait that long.)
//
// A batch has no size limit: it carries every key one level of a query
// asks for, so that a request's statement count does not grow with the
// number of objects it loads. What bounds the keys of one request is its
// shape: the GraphQL limits (aliases, fields, complexity; graph.Options)
// cap the fields that can load, and a batch is one `IN (...)` statement.
//
// Root lookups by id (node(id:), account(id:), ...) are read before the
// operation's fields run (Prefetch), one batch per loader for all their
// aliases.

// Fetch is a batched read: one value or one error per id, in id order.
type Fetch[V any] func(ctx context.Context, ids []string) ([]V, []error)

// Key names one kind of loader and the type it loads.
type Key[V any] struct{ name string }

// NewKey declares a loader kind.
func NewKey[V any](name string) Key[V] { return Key[V]{name: name} }

// Name is the loader kind's name.
func (k Key[V]) Name() string { return k.name }

// Registry holds the batch function of every declared loader and the
// loader edges LookAhead follows.
type Registry struct {
	batches map[string]dataloader.BatchFunc[string, any]
	edges   map[reflect.Type]map[string]edge
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{batches: map[string]dataloader.BatchFunc[string, any]{},
		edges: map[reflect.Type]map[string]edge{}}
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
	m   map[string]*loader
}

// loader is one request's loader of a kind, with its cache (which
// Prefetch fills).
type loader struct {
	*dataloader.Loader[string, any]
	cache *dataloader.InMemoryCache[string, any]
}

func (s *set) loader(name string) *loader {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.m[name]
	if !ok {
		batch, known := s.reg.batches[name]
		if !known {
			panic("loaders: no loader registered for " + name)
		}
		cache := dataloader.NewCache[string, any]()
		l = &loader{cache: cache, Loader: dataloader.NewBatchedLoader(batch,
			dataloader.WithBatchCapacity[string, any](1), dataloader.WithCache[string, any](cache))}
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

// Prefetch reads ids through the request's loader called name in one
// batch, now, and keeps every result (the object or its error) in the
// loader's cache, so that the fields loading them afterwards run no
// statement. Ids already in the cache are not read again. It returns each
// id's error (nil when found); ok is false when the request has no
// loaders, no loader has that name, or the batch panicked (the fields then
// load as usual).
func Prefetch(ctx context.Context, name string, ids []string) (errs []error, ok bool) {
	s := from(ctx)
	if s == nil {
		return nil, false
	}
	res, ok := s.prefetch(ctx, name, ids)
	if !ok {
		return nil, false
	}
	errs = make([]error, len(ids))
	for i, r := range res {
		errs[i] = r.Error
	}
	return errs, true
}

// prefetch is Prefetch answering each id's value too (nil data and nil
// error for an id not in the cache, which only a panicking batch leaves).
func (s *set) prefetch(ctx context.Context, name string, ids []string) (out []dataloader.Result[any], ok bool) {
	batch, known := s.reg.batches[name]
	if !known {
		return nil, false
	}
	l := s.loader(name)
	var want []string
	seen := map[string]bool{}
	for _, id := range ids {
		if _, cached := l.cache.Get(ctx, id); !cached && !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
	}
	if len(want) > 0 {
		results, fine := runBatch(ctx, batch, want)
		if !fine {
			return nil, false
		}
		for i, id := range want {
			res := &dataloader.Result[any]{Error: errors.New("loaders: no result")}
			if i < len(results) && results[i] != nil {
				res = results[i]
			}
			l.cache.Set(ctx, id, func() (any, error) { return res.Data, res.Error })
		}
	}
	out = make([]dataloader.Result[any], len(ids))
	for i, id := range ids {
		if thunk, cached := l.cache.Get(ctx, id); cached {
			out[i].Data, out[i].Error = thunk()
		}
	}
	return out, true
}

// Cached answers what the request's loader called name holds for id:
// whether it holds anything, and then the value or its error.
func Cached(ctx context.Context, name, id string) (v any, cached bool, err error) {
	s := from(ctx)
	if s == nil {
		return nil, false, nil
	}
	if _, known := s.reg.batches[name]; !known {
		return nil, false, nil
	}
	thunk, ok := s.loader(name).cache.Get(ctx, id)
	if !ok {
		return nil, false, nil
	}
	v, err = thunk()
	return v, true, err
}

func runBatch(ctx context.Context, batch dataloader.BatchFunc[string, any], keys []string) (res []*dataloader.Result[any], ok bool) {
	defer func() {
		if recover() != nil {
			res, ok = nil, false
		}
	}()
	return batch(ctx, keys), true
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
		s := &set{reg: reg, m: map[string]*loader{}}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, s)))
	})
}
