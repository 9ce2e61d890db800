// Package graph is the GraphQL transport: the schema (graph/schema), the
// executor gqlgen generates from it (graph/generated), the per-request
// dataloaders (graph/loaders) and the HTTP handler served at /graphql. It
// holds no business rule: the resolvers (package resolvers) call the same
// operation layer REST calls, and errors are rendered from the same typed
// errors by one presenter.
package graph

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/graph/generated"
	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/resolvers"
)

// Defaults of Options.
const (
	DefaultComplexityLimit = 5000
	DefaultDepthLimit      = 12
	DefaultAPQCacheSize    = 100
	DefaultQueryCacheSize  = 1000
)

// Options configures the GraphQL handler. The zero value is the default
// configuration: introspection on, complexity 5000, depth 12, a persisted
// query cache of 100.
type Options struct {
	// Logger receives internal errors and panics, with their causes. Nil
	// uses the resolver's logger (or slog.Default()).
	Logger *slog.Logger
	// RequestID returns the request id for error extensions and logs. Nil
	// uses httpx.RequestIDFromContext.
	RequestID func(context.Context) string
	// ComplexityLimit caps an operation's complexity: every field costs 1
	// plus its children, and a connection's children count `first` times.
	ComplexityLimit int
	// DepthLimit caps how deep selections nest (root fields are depth 1).
	DepthLimit int
	// DisableIntrospection turns schema introspection off.
	DisableIntrospection bool
	// APQCacheSize is the number of automatic persisted queries kept.
	APQCacheSize int
	// QueryCacheSize is the number of parsed query documents kept.
	QueryCacheSize int
}

func (o Options) withDefaults(res *resolvers.Resolver) Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.RequestID == nil {
		o.RequestID = httpx.RequestIDFromContext
	}
	if o.ComplexityLimit <= 0 {
		o.ComplexityLimit = DefaultComplexityLimit
	}
	if o.DepthLimit <= 0 {
		o.DepthLimit = DefaultDepthLimit
	}
	if o.APQCacheSize <= 0 {
		o.APQCacheSize = DefaultAPQCacheSize
	}
	if o.QueryCacheSize <= 0 {
		o.QueryCacheSize = DefaultQueryCacheSize
	}
	return o
}

// NewHandler returns the /graphql handler over res: GET (queries) and POST,
// with automatic persisted queries, complexity and depth limits, one error
// presenter, and fresh dataloaders for every request. It expects the
// authentication middleware to have put the caller's principal into the
// request context; resolvers authorize themselves.
func NewHandler(res *resolvers.Resolver, opts Options) http.Handler {
	opts = opts.withDefaults(res)
	cfg := generated.Config{Resolvers: res}
	countConnections(&cfg.Complexity, generated.NewExecutableSchema(cfg).Schema())

	srv := handler.New(generated.NewExecutableSchema(cfg))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](opts.QueryCacheSize))
	if !opts.DisableIntrospection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](opts.APQCacheSize)})
	srv.Use(extension.FixedComplexityLimit(opts.ComplexityLimit))
	srv.Use(DepthLimit{Limit: opts.DepthLimit})
	srv.Use(&StrictEnums{})
	srv.AroundOperations(noteOperation)
	srv.AroundFields(eachMutation)

	p := presenter{logger: opts.Logger, requestID: opts.RequestID}
	srv.SetErrorPresenter(p.present)
	srv.SetRecoverFunc(p.recoverPanic)

	return loaders.Middleware(res.Loaders(), readIdempotencyKey(noStore(srv)))
}

// noStore keeps responses, which carry tenant data, out of shared caches
// (GET queries would otherwise be cacheable).
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// PlaygroundHandler serves GraphiQL (for /playground) against /graphql.
// Credentials go in its headers pane: {"Authorization": "Bearer sk_..."}.
func PlaygroundHandler() http.Handler {
	return playground.Handler("Payments API — GraphQL", "/graphql")
}

// noteOperation names the GraphQL operation in the request's log line, so
// that requests to the one /graphql route can be told apart.
func noteOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if oc := graphql.GetOperationContext(ctx); oc != nil {
		name := oc.OperationName
		if name == "" && oc.Operation != nil {
			name = oc.Operation.Name
		}
		info := httpx.Info(ctx)
		info.GraphQLOperation = name
		if oc.Operation != nil {
			info.GraphQLOperationType = string(oc.Operation.Operation)
		}
	}
	return next(ctx)
}
