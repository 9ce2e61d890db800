// Package tracing sets up OpenTelemetry traces: off unless an OTLP
// endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, with the rest of the standard
// OTEL_* variables), exported over OTLP/HTTP when on.
//
// What is traced, each as a span of the request's trace: the HTTP request
// (httpx.Trace), the REST handler or the GraphQL operation, every SQL
// statement run for the request (pgx's tracer, store), the jobs the request
// enqueued and their work (River's middleware, linked to the enqueueing
// request), and webhook deliveries. The instrumentation asks the global
// provider, so with tracing off it records nothing and costs a check.
//
// What a span may carry is decided here once: names of routes, operations,
// statements' kinds and job kinds, ids, status codes and the request id.
// Never a credential, a card number, a request or response body, a query
// string (a charge intent's client_secret travels in one), SQL text (Bun
// writes the values into it) or a webhook endpoint's URL.
package tracing

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// instrumentation names the project's own spans' tracer.
const instrumentation = "github.com/frame-oss/payments-server"

// ServiceName is service.name unless OTEL_SERVICE_NAME says otherwise.
const ServiceName = "payments-server"

// RequestIDKey is the request id attribute, the id of the request's log
// line and error body.
const RequestIDKey = attribute.Key("request.id")

// Tracer is the tracer of the project's own spans.
func Tracer() trace.Tracer { return otel.Tracer(instrumentation) }

// Propagator reads and writes W3C trace context (traceparent), whatever
// the global propagator is, so a caller's trace continues into ours.
var Propagator propagation.TextMapPropagator = propagation.TraceContext{}

// Enabled reports whether getenv configures an OTLP endpoint and does not
// turn the SDK or the trace exporter off.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") || getenv("OTEL_TRACES_EXPORTER") == "none" {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs the OTLP exporter as the global tracer provider when
// Enabled; shutdown flushes and stops it (a no-op when off). The exporter
// reads its endpoint, headers, timeout and protocol details from the
// standard OTEL_EXPORTER_OTLP_* variables, and the sampler from
// OTEL_TRACES_SAMPLER.
func Setup(ctx context.Context, getenv func(string) string) (enabled bool, shutdown func(context.Context) error, err error) {
	if !Enabled(getenv) {
		return false, func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return false, nil, errors.Join(errors.New("tracing: OTLP exporter"), err)
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", ServiceName)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return false, nil, errors.Join(errors.New("tracing: resource"), err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	Install(tp)
	return true, tp.Shutdown, nil
}

// installed records that a provider was installed.
var installed atomic.Bool

// Install makes tp the global tracer provider (Setup; tests with an
// in-memory exporter).
func Install(tp trace.TracerProvider) {
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(Propagator)
	installed.Store(true)
}

// Active reports whether a tracer provider was installed: what would
// cost something on every statement (a pool's statement tracer) is
// attached only then.
func Active() bool { return installed.Load() }
