package httpx

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/frame-oss/payments-server/internal/platform/tracing"
)

// Trace makes each request a server span (internal/platform/tracing),
// continuing the caller's trace when it sends a traceparent, named by its
// route once routed ("GET /v1/accounts/{id}"), with the request id, the
// method and the status. The path, query string, headers and body stay
// out: they carry ids of the caller's choosing and, in a query string,
// client secrets. Place it after RequestID.
func Trace(next http.Handler) http.Handler {
	tracer := tracing.Tracer()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := tracing.Propagator.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		if !tracing.Active() {
			// No provider: the span would not record, and would carry the
			// caller's span context, which Extract put in ctx already.
			if ctx != r.Context() {
				r = r.WithContext(ctx)
			}
			next.ServeHTTP(w, r)
			return
		}
		method := MethodLabel(r.Method)
		ctx, span := tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", method),
				tracing.RequestIDKey.String(RequestIDFromContext(r.Context()))))
		defer span.End()
		if !span.IsRecording() {
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r.WithContext(ctx))
		route := routePattern(r)
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		span.SetName(method + " " + route)
		span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
		if status >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, strconv.Itoa(status))
		}
	})
}

// HandlerSpan wraps a transport's handlers in a span named kind and the
// route ("rest GET /v1/accounts"), under the request's span: the handler's
// own time beside authentication and rate limiting.
func HandlerSpan(kind string) func(http.Handler) http.Handler {
	tracer := tracing.Tracer()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !trace.SpanFromContext(r.Context()).IsRecording() {
				next.ServeHTTP(w, r)
				return
			}
			ctx, span := tracer.Start(r.Context(), kind, trace.WithAttributes(
				tracing.RequestIDKey.String(RequestIDFromContext(r.Context()))))
			defer span.End()
			next.ServeHTTP(w, r.WithContext(ctx))
			span.SetName(kind + " " + MethodLabel(r.Method) + " " + routePattern(r))
		})
	}
}
