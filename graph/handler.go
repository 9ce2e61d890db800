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
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/graph/generated"
	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/playground"
	"github.com/frame-oss/payments-server/graph/response"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers"
)

// Defaults of Options. The request limits are sized for a dashboard page
// with a wide margin: every field of an account is about 110 fields, a
// page of 100 accounts with their capabilities 25, GraphiQL's
// introspection query 240 (fragments expanded) and 184 tokens. A query
// they refuse costs about a millisecond; the most expensive query they
// let through (500 fields of one name) takes gqlgen's validation some
// 25 ms, where 20,000 took 18 s without them.
const (
	DefaultComplexityLimit   = 5000
	DefaultDepthLimit        = 12
	DefaultAPQCacheSize      = 100
	DefaultQueryCacheSize    = 1000
	DefaultMaxBodyBytes      = httpx.MaxBodyBytes // 1 MiB, as REST
	DefaultTokenLimit        = 5000
	DefaultMaxFields         = 500
	DefaultMaxAliases        = 100
	DefaultMaxDirectives     = 50
	DefaultMaxMutationFields = 10
	DefaultMaxErrors         = 100
)

// Options configures the GraphQL handler. The zero value is the default
// configuration: introspection on for secret keys, complexity 5000, depth 12, a persisted
// query cache of 100, and the request limits below at their defaults. A
// limit of zero (or less) takes its default; docs/graphql.md lists them.
//
// The request limits act before gqlgen parses and validates a query
// (validation time grows with the square of same-named fields, and the
// depth and complexity walks with the expansion of fragments), so a
// refused query costs a bounded amount of work; each refusal is a GraphQL
// error with extensions.code and extensions.status 400, answered 400 (the
// request decoder's other refusals are listed at httpTransport).
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
	// AnonymousIntrospection answers schema introspection to any caller,
	// for local development; by default only a secret key may introspect
	// (introspectionKey).
	AnonymousIntrospection bool
	// APQCacheSize is the number of automatic persisted queries kept.
	APQCacheSize int
	// QueryCacheSize is the number of parsed query documents kept.
	QueryCacheSize int

	// MaxBodyBytes bounds a POST body and a GET query string (400
	// request_too_large); the body is never echoed.
	MaxBodyBytes int64
	// TokenLimit bounds the lexical tokens of a query document (names,
	// values, punctuation, comments): 400 query_too_large.
	TokenLimit int
	// MaxFields bounds the fields a document selects, counting a
	// fragment's fields wherever it is spread, and fragment spreads and
	// inline fragments as one each: 400 too_many_fields.
	MaxFields int
	// MaxAliases bounds the aliased fields of a document, as written:
	// 400 too_many_aliases.
	MaxAliases int
	// MaxDirectives bounds the directives (@include, @skip...) of a
	// document, as written: 400 too_many_directives.
	MaxDirectives int
	// MaxMutationFields bounds the root fields of a mutation: 400
	// too_many_mutations, and none of them runs.
	MaxMutationFields int
	// MaxErrors bounds the errors of one response; a longer list is cut
	// and ends with a too_many_errors note.
	MaxErrors int
	// Origins are the other origins whose pages may open the
	// subscriptions' websocket (serve --cors-origins; "*": any); the
	// server's own origin always may.
	Origins []string
}

func (o Options) withDefaults(res *resolvers.Resolver) Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.RequestID == nil {
		o.RequestID = httpx.RequestIDFromContext
	}
	flagenv.Default(&o.ComplexityLimit, DefaultComplexityLimit)
	flagenv.Default(&o.DepthLimit, DefaultDepthLimit)
	flagenv.Default(&o.APQCacheSize, DefaultAPQCacheSize)
	flagenv.Default(&o.QueryCacheSize, DefaultQueryCacheSize)
	flagenv.Default(&o.MaxBodyBytes, DefaultMaxBodyBytes)
	flagenv.Default(&o.TokenLimit, DefaultTokenLimit)
	flagenv.Default(&o.MaxFields, DefaultMaxFields)
	flagenv.Default(&o.MaxAliases, DefaultMaxAliases)
	flagenv.Default(&o.MaxDirectives, DefaultMaxDirectives)
	flagenv.Default(&o.MaxMutationFields, DefaultMaxMutationFields)
	flagenv.Default(&o.MaxErrors, DefaultMaxErrors)
	return o
}

// NewHandler returns the /graphql handler over res: GET (queries) and POST,
// with automatic persisted queries, the request limits, complexity and
// depth limits, one error presenter, and fresh dataloaders for every
// request. It expects the authentication middleware to have put the
// caller's principal into the request context; resolvers authorize
// themselves.
//
// A request goes: read and decode (httpTransport: body cap) → persisted
// query lookup → document limits (documentLimits: tokens, fields, aliases,
// directives, mutation fields; linear, before parsing) → gqlgen's parse
// and validation → complexity, then depth → execution; the response's
// errors are capped (capErrors).
func NewHandler(res *resolvers.Resolver, opts Options) http.Handler {
	opts = opts.withDefaults(res)
	cfg := generated.Config{Resolvers: res}
	cfg.Schema = servedSchema(generated.NewExecutableSchema(cfg).Schema())
	schema := cfg.Schema
	countConnections(&cfg.Complexity, schema)

	srv := handler.New(generated.NewExecutableSchema(cfg))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(websocketTransport(res, opts.Origins))
	srv.AddTransport(httpTransport{maxBody: opts.MaxBodyBytes})
	queries := lru.New[*ast.QueryDocument](opts.QueryCacheSize)
	srv.SetQueryCache(queries)
	srv.SetParserTokenLimit(opts.TokenLimit)
	srv.Use(credentialRequired{anonymousIntrospection: opts.AnonymousIntrospection && !opts.DisableIntrospection})
	if !opts.DisableIntrospection {
		srv.Use(extension.Introspection{})
		if !opts.AnonymousIntrospection {
			srv.Use(introspectionKey{})
		}
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](opts.APQCacheSize)})
	srv.Use(documentLimits{tokens: opts.TokenLimit, fields: opts.MaxFields, aliases: opts.MaxAliases,
		directives: opts.MaxDirectives, mutations: opts.MaxMutationFields,
		noIntrospection: opts.DisableIntrospection, cache: queries})
	// Complexity and depth walk the operation with fragments expanded:
	// MaxFields bounds that expansion. An operation without variables is
	// walked for its complexity once per query text (complexityLimit).
	srv.Use(newComplexityLimit(opts.ComplexityLimit, opts.QueryCacheSize))
	srv.Use(DepthLimit{Limit: opts.DepthLimit})
	srv.Use(&StrictEnums{})
	srv.AroundOperations(noteOperation)
	srv.AroundOperations(replicaReads)
	srv.AroundOperations(traceOperation)
	srv.AroundOperations(prefetchRoots(schema))
	// Field middleware runs for resolver fields only: the executor reads a
	// field of the model without it (graph/generated/resolve_field.go),
	// and both of these act on resolver fields alone.
	// Outside eachMutation, which empties the loaders after each write:
	// a mutation's result is looked ahead from with fresh loaders.
	srv.AroundFields(loaders.LookAhead(schema))
	srv.AroundFields(eachMutation)

	p := response.Presenter{Logger: opts.Logger, RequestID: opts.RequestID}
	srv.SetErrorPresenter(p.Present)
	srv.SetRecoverFunc(p.RecoverPanic)
	srv.AroundResponses(p.CapErrors(opts.MaxErrors))

	return httpx.ClearDeadlinesOnUpgrade(loaders.Middleware(res.Loaders(), readIdempotencyKey(noStore(srv))))
}

// noStore keeps responses, which carry tenant data, out of shared caches
// (GET queries would otherwise be cacheable).
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// PlaygroundHandler serves GraphiQL at /playground, and its assets under
// /playground/assets/, against /graphql, entirely from the binary (package
// playground). The key typed in the page's field is sent as
// "Authorization: Bearer <key>" with queries, mutations and subscriptions.
func PlaygroundHandler() http.Handler {
	return playground.Handler("Payments API — GraphQL", "/playground", "/graphql")
}

// replicaReads lets a query's pages come from a read replica
// (store.AllowReplica; the store serves the merchant's own writes from the
// primary until a replica has them). Mutations and subscriptions read the
// primary.
func replicaReads(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Query {
		ctx = store.AllowReplica(ctx)
	}
	return next(ctx)
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
