package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// The one error presenter of the GraphQL transport. The operation layer
// returns *apierr.Error; REST renders it in the envelope of API-DECISIONS §2
// and this renders the same error as a GraphQL error:
//
//	{"message": "...", "path": [...], "extensions": {"code": "validation_errors",
//	 "status": 422, "param": "...", "data": {...}, "errors": {"profile.individual.email": ["is invalid"]},
//	 "details": {...}, "request_id": "req_..."}}
//
// GraphQL's own errors (parse, validation, complexity and depth limits,
// persisted queries, null bubbling) pass through with their GraphQL codes.
// Anything else is a 500 internal_error with a generic message: its cause is
// logged with the request id, never echoed.
//
// No error echoes more than an excerpt of the input: messages (which quote
// ids, names and tokens of the query) are cut at maxEchoMessage bytes,
// paths' names, params and field-problem keys at maxEchoName, and a
// validation error lists at most maxFieldProblems problems. A response
// carries at most Options.MaxErrors errors (capErrors).

type presenter struct {
	logger    *slog.Logger
	requestID func(context.Context) string
}

func (p presenter) present(ctx context.Context, err error) *gqlerror.Error {
	var gqlErr *gqlerror.Error
	if !errors.As(err, &gqlErr) {
		gqlErr = gqlerror.WrapPath(graphql.GetPath(ctx), err)
	}
	e := apierr.As(err)
	if e == nil {
		if gqlErr.Err == nil { // an error of GraphQL itself
			return p.withRequestID(ctx, boundError(gqlErr))
		}
		e = apierr.Internal(err)
	}
	if level, ok := e.Logged(); ok {
		p.logger.Log(ctx, level, "graphql error", "request_id", p.requestID(ctx), "code", e.Code,
			"path", gqlErr.Path.String(), "error", httpx.Redact(causeOf(e)))
	}
	ext := map[string]any{"code": e.Code, "status": e.Status}
	if e.Param != "" {
		ext["param"] = bounded(e.Param, maxEchoName)
	}
	if len(e.Data) > 0 {
		ext["data"] = e.Data
	}
	if len(e.Fields) > 0 {
		ext["errors"] = boundFields(e.Fields)
	}
	if len(e.Details) > 0 {
		ext["details"] = e.Details
	}
	if id := p.requestID(ctx); id != "" {
		ext["request_id"] = id
	}
	return &gqlerror.Error{Message: bounded(e.Message, maxEchoMessage), Path: boundPath(gqlErr.Path),
		Locations: gqlErr.Locations, Extensions: ext}
}

// Bounds of what an error may echo.
const (
	maxEchoMessage   = 512 // bytes of a message
	maxEchoName      = 128 // bytes of a path name, a param, a field-problem key
	maxFieldProblems = 100 // entries of extensions.errors
)

// bounded is s as an error may echo it: credentials and card numbers
// redacted (httpx.Redact, as REST does), cut to at most n bytes (on a rune
// boundary, ending in "…").
func bounded(s string, n int) string {
	s = httpx.Redact(s)
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// boundError copies a GraphQL error with its message and path bounded.
func boundError(g *gqlerror.Error) *gqlerror.Error {
	if len(g.Message) <= maxEchoMessage && !longPath(g.Path) && httpx.Redact(g.Message) == g.Message {
		return g
	}
	out := *g
	out.Message = bounded(g.Message, maxEchoMessage)
	out.Path = boundPath(g.Path)
	return &out
}

func longPath(path ast.Path) bool {
	for _, el := range path {
		if name, ok := el.(ast.PathName); ok && len(name) > maxEchoName {
			return true
		}
	}
	return false
}

// boundPath cuts the names of path (aliases are the client's) to
// maxEchoName bytes.
func boundPath(path ast.Path) ast.Path {
	if !longPath(path) {
		return path
	}
	out := make(ast.Path, len(path))
	for i, el := range path {
		if name, ok := el.(ast.PathName); ok {
			el = ast.PathName(bounded(string(name), maxEchoName))
		}
		out[i] = el
	}
	return out
}

// boundFields bounds a validation error's problems: their keys (which can
// quote input, e.g. metadata keys) and their number (the first in key
// order are kept).
func boundFields(fields map[string][]string) map[string][]string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) > maxFieldProblems {
		keys = keys[:maxFieldProblems]
	}
	out := make(map[string][]string, len(keys))
	for _, k := range keys {
		problems := make([]string, len(fields[k]))
		for i, pr := range fields[k] {
			problems[i] = bounded(pr, maxEchoMessage)
		}
		bk := bounded(k, maxEchoName)
		out[bk] = append(out[bk], problems...)
	}
	return out
}

// capErrors keeps at most max errors in a response, ending a cut list with
// a note saying how many were left out (extensions.code too_many_errors,
// extensions.omitted).
func (p presenter) capErrors(max int) graphql.ResponseMiddleware {
	return func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		resp := next(ctx)
		if resp == nil || len(resp.Errors) <= max {
			return resp
		}
		omitted := len(resp.Errors) - max
		note := p.withRequestID(ctx, &gqlerror.Error{
			Message:    fmt.Sprintf("%d more errors were left out (a response carries at most %d)", omitted, max),
			Extensions: map[string]any{"code": CodeTooManyErrors, "omitted": omitted},
		})
		resp.Errors = append(resp.Errors[:max:max], note)
		return resp
	}
}

// withRequestID copies a GraphQL error, adding the request id.
func (p presenter) withRequestID(ctx context.Context, g *gqlerror.Error) *gqlerror.Error {
	id := p.requestID(ctx)
	if id == "" {
		return g
	}
	out := *g
	out.Extensions = make(map[string]any, len(g.Extensions)+1)
	for k, v := range g.Extensions {
		out.Extensions[k] = v
	}
	out.Extensions["request_id"] = id
	return &out
}

// recoverPanic turns a resolver panic into an internal error (logged by
// the presenter with its cause); the stack is logged here.
func (p presenter) recoverPanic(ctx context.Context, v any) error {
	p.logger.ErrorContext(ctx, "graphql panic", "request_id", p.requestID(ctx),
		"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	return apierr.Internal(fmt.Errorf("panic: %v", v))
}

func causeOf(e *apierr.Error) string {
	if e.Cause != nil {
		return e.Cause.Error()
	}
	return e.Message
}

// WriteError answers a /graphql request refused before GraphQL runs (a
// credential that does not authenticate, a rate limit, a busy server) in
// GraphQL's shape, as every other error of /graphql is: {"errors":
// [{message, extensions: {code, status, request_id, ...}}]} with the
// error's HTTP status, which GraphQL over HTTP lets a server use for a
// request it refuses whatever its document. The REST error envelope is
// /v1's.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	p := presenter{logger: slog.Default(), requestID: httpx.RequestIDFromContext}
	e := apierr.From(err)
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", responseContentType(r))
	writeResponse(w, e.Status, &graphql.Response{Errors: gqlerror.List{p.present(r.Context(), e)}})
}
