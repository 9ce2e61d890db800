package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
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
			return p.withRequestID(ctx, gqlErr)
		}
		e = apierr.Internal(err)
	}
	if e.Status >= 500 {
		p.logger.ErrorContext(ctx, "graphql error", "request_id", p.requestID(ctx), "code", e.Code,
			"path", gqlErr.Path.String(), "error", causeOf(e))
	}
	ext := map[string]any{"code": e.Code, "status": e.Status}
	if e.Param != "" {
		ext["param"] = e.Param
	}
	if len(e.Data) > 0 {
		ext["data"] = e.Data
	}
	if len(e.Fields) > 0 {
		ext["errors"] = e.Fields
	}
	if len(e.Details) > 0 {
		ext["details"] = e.Details
	}
	if id := p.requestID(ctx); id != "" {
		ext["request_id"] = id
	}
	return &gqlerror.Error{Message: e.Message, Path: gqlErr.Path, Locations: gqlErr.Locations, Extensions: ext}
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
