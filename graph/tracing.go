package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/tracing"
)

// traceOperation makes each GraphQL operation a span under the request's
// (internal/platform/tracing): "graphql query Dashboard", with the
// operation's type and name and the request id. The document and its
// variables stay out (they carry the caller's data).
func traceOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return next(ctx)
	}
	oc := graphql.GetOperationContext(ctx)
	typ, name := "unknown", oc.OperationName
	if oc.Operation != nil {
		typ = string(oc.Operation.Operation)
		if name == "" {
			name = oc.Operation.Name
		}
	}
	ctx, span := tracing.Tracer().Start(ctx, "graphql "+typ+" "+name, trace.WithAttributes(
		attribute.String("graphql.operation.type", typ), attribute.String("graphql.operation.name", name),
		tracing.RequestIDKey.String(httpx.RequestIDFromContext(ctx))))
	handler := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		resp := handler(ctx)
		// A query or mutation answers once; a subscription answers each
		// event, then nil.
		if resp == nil || typ != "subscription" {
			span.End()
		}
		return resp
	}
}
