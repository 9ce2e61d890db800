// Package response renders the GraphQL transport's responses: the one
// error presenter (Presenter) and the writing of a response body (Write).
// It is apart from package graph so that its tests need neither the app
// nor a database.
package response

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
// ids, names and tokens of the query) are cut at MaxEchoMessage bytes,
// paths' names, params and field-problem keys at MaxEchoName, and a
// validation error lists at most MaxFieldProblems problems. A response
// carries at most the handler's MaxErrors errors (CapErrors).

// Presenter renders every error of a GraphQL response.
type Presenter struct {
	// Logger receives the internal errors and the panics, with their
	// causes and the request id.
	Logger *slog.Logger
	// RequestID is the request id of a request's context ("" for none).
	RequestID func(context.Context) string
}

// CodeTooManyErrors is the code of the note ending a cut error list.
const CodeTooManyErrors = "too_many_errors"

// Present renders err as a GraphQL error: gqlgen's error presenter.
func (p Presenter) Present(ctx context.Context, err error) *gqlerror.Error {
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
		p.Logger.Log(ctx, level, "graphql error", "request_id", p.RequestID(ctx), "code", e.Code,
			"path", gqlErr.Path.String(), "error", httpx.Redact(causeOf(e)))
	}
	ext := map[string]any{"code": e.Code, "status": e.Status}
	if e.Param != "" {
		ext["param"] = Bounded(e.Param, MaxEchoName)
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
	if id := p.RequestID(ctx); id != "" {
		ext["request_id"] = id
	}
	return &gqlerror.Error{Message: Bounded(e.Message, MaxEchoMessage), Path: boundPath(gqlErr.Path),
		Locations: gqlErr.Locations, Extensions: ext}
}

// Bounds of what an error may echo.
const (
	MaxEchoMessage   = 512 // bytes of a message
	MaxEchoName      = 128 // bytes of a path name, a param, a field-problem key
	MaxFieldProblems = 100 // entries of extensions.errors
)

// Bounded is s as an error may echo it: credentials and card numbers
// redacted (httpx.Redact, as REST does), cut to at most n bytes (on a rune
// boundary, ending in "…").
func Bounded(s string, n int) string {
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
	if len(g.Message) <= MaxEchoMessage && !longPath(g.Path) && httpx.Redact(g.Message) == g.Message {
		return g
	}
	out := *g
	out.Message = Bounded(g.Message, MaxEchoMessage)
	out.Path = boundPath(g.Path)
	return &out
}

func longPath(path ast.Path) bool {
	for _, el := range path {
		if name, ok := el.(ast.PathName); ok && len(name) > MaxEchoName {
			return true
		}
	}
	return false
}

// boundPath cuts the names of path (aliases are the client's) to
// MaxEchoName bytes.
func boundPath(path ast.Path) ast.Path {
	if !longPath(path) {
		return path
	}
	out := make(ast.Path, len(path))
	for i, el := range path {
		if name, ok := el.(ast.PathName); ok {
			el = ast.PathName(Bounded(string(name), MaxEchoName))
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
	if len(keys) > MaxFieldProblems {
		keys = keys[:MaxFieldProblems]
	}
	out := make(map[string][]string, len(keys))
	for _, k := range keys {
		problems := make([]string, len(fields[k]))
		for i, pr := range fields[k] {
			problems[i] = Bounded(pr, MaxEchoMessage)
		}
		bk := Bounded(k, MaxEchoName)
		out[bk] = append(out[bk], problems...)
	}
	return out
}

// CapErrors keeps at most max errors in a response, ending a cut list with
// a note saying how many were left out (extensions.code too_many_errors,
// extensions.omitted).
func (p Presenter) CapErrors(max int) graphql.ResponseMiddleware {
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
func (p Presenter) withRequestID(ctx context.Context, g *gqlerror.Error) *gqlerror.Error {
	id := p.RequestID(ctx)
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

// RecoverPanic turns a resolver panic into an internal error (logged by
// the presenter with its cause); the stack is logged here.
func (p Presenter) RecoverPanic(ctx context.Context, v any) error {
	p.Logger.ErrorContext(ctx, "graphql panic", "request_id", p.RequestID(ctx),
		"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	return apierr.Internal(fmt.Errorf("panic: %v", v))
}

func causeOf(e *apierr.Error) string {
	if e.Cause != nil {
		return e.Cause.Error()
	}
	return e.Message
}
