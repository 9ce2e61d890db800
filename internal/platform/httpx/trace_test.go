package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/frame-oss/payments-server/internal/platform/tracing"
)

// Without a tracer provider no span is started, and the handler still
// sees the caller's span context (what a started span would have
// carried), or none when the caller sent none.
func TestTraceWithoutAProviderKeepsTheCallersSpanContext(t *testing.T) {
	if tracing.Active() {
		t.Fatal("a tracer provider is installed in this test binary")
	}
	var seen trace.SpanContext
	var recording bool
	h := Trace(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		seen = trace.SpanContextFromContext(r.Context())
		recording = trace.SpanFromContext(r.Context()).IsRecording()
	}))
	r := httptest.NewRequest(http.MethodGet, "/v1/accounts", nil)
	r.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || seen.SpanID().String() != "00f067aa0ba902b7" ||
		!seen.IsSampled() || !seen.IsRemote() || recording {
		t.Fatalf("handler saw %+v (recording %v), want the caller's span context", seen, recording)
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/accounts", nil))
	if seen.IsValid() || recording {
		t.Fatalf("handler saw %+v (recording %v) from a caller without traceparent", seen, recording)
	}
}
