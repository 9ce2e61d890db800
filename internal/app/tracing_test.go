package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/tracing"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var (
	spansOnce sync.Once
	spans     *tracetest.SpanRecorder
)

// recordSpans installs, once for the package, an in-memory exporter as the
// global tracer provider, as Setup installs the OTLP one.
func recordSpans() *tracetest.SpanRecorder {
	spansOnce.Do(func() {
		spans = tracetest.NewSpanRecorder()
		tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	})
	return spans
}

// traceOf is every ended span of the trace id.
func traceOf(rec *tracetest.SpanRecorder, id trace.TraceID) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanContext().TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

// awaitSpan waits until the span named name of the trace id has ended (the
// server span ends after the client has read the response) and returns
// the trace's ended spans; it nests every other span of the request.
func awaitSpan(t *testing.T, rec *tracetest.SpanRecorder, id trace.TraceID, name string) []sdktrace.ReadOnlySpan {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute) // guards against hanging only
	for {
		got := traceOf(rec, id)
		for _, s := range got {
			if s.Name() == name {
				return got
			}
		}
		require.True(t, time.Now().Before(deadline), "span %q never ended: %v", name, names(got))
		require.NoError(t, clock.Sleep(t.Context(), 5*time.Millisecond))
	}
}

func names(ss []sdktrace.ReadOnlySpan) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name()
	}
	return out
}

// requireNothingSecret fails when any attribute of ss carries one of the
// values, or SQL text.
func requireNothingSecret(t *testing.T, ss []sdktrace.ReadOnlySpan, values ...string) {
	t.Helper()
	for _, s := range ss {
		for _, kv := range s.Attributes() {
			key, v := string(kv.Key), kv.Value.Emit()
			require.NotContains(t, []string{"db.statement", "db.query.text", "url.query", "url.full"}, key, s.Name())
			for _, secret := range values {
				require.NotContains(t, v, secret, "span %s attribute %s", s.Name(), key)
			}
		}
	}
}

// A traced request is one trace: the HTTP span (named by its route, with
// the request id of the response), the REST handler's or the GraphQL
// operation's span beneath it, and a span per SQL statement; webhook
// deliveries are spans beneath their job's. No attribute carries the
// credential, a card number, the body or SQL text.
func TestTracesFollowARequestFromHTTPToSQLWithoutSecrets(t *testing.T) {
	rec := recordSpans()
	e := testenv.New(t)
	sk := e.Client(e.Keys.Sandbox.Secret)
	const email, card = "ada.trace@example.com", "4242424242424242"

	traceID := trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}
	parent := "00-" + traceID.String() + "-00f067aa0ba902b7-01"
	body := testenv.Individual().WithMetadata(map[string]string{"note": card}).WithIndividual(func(i *testenv.IndividualSpec) {
		i.Email = email
	}).RESTBody()
	r := sk.Do(http.MethodPost, "/v1/accounts", body, http.Header{"Traceparent": {parent}, "Idempotency-Key": {"trace-1"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	got := awaitSpan(t, rec, traceID, "POST /v1/accounts")
	require.Contains(t, names(got), "POST /v1/accounts")
	require.Contains(t, names(got), "rest POST /v1/accounts")
	require.Contains(t, names(got), "INSERT")
	for _, s := range got {
		if s.Name() == "POST /v1/accounts" {
			require.Equal(t, trace.SpanKindServer, s.SpanKind())
			require.Equal(t, "00f067aa0ba902b7", s.Parent().SpanID().String(), "the caller's trace continues")
			attrs := map[string]string{}
			for _, kv := range s.Attributes() {
				attrs[string(kv.Key)] = kv.Value.Emit()
			}
			require.Equal(t, r.Header.Get("Request-Id"), attrs["request.id"])
			require.Equal(t, "201", attrs["http.response.status_code"])
		}
	}
	requireNothingSecret(t, got, e.Keys.Sandbox.Secret, email, card, "Lovelace")

	gqlTrace := trace.TraceID{0x5b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x37}
	gr := sk.Do(http.MethodPost, "/graphql", map[string]any{"query": `query Dashboard { accounts(first: 5) { edges { node { id email: id } } } }`},
		http.Header{"Traceparent": {"00-" + gqlTrace.String() + "-00f067aa0ba902b7-01"}})
	require.Equal(t, http.StatusOK, gr.Status)
	got = awaitSpan(t, rec, gqlTrace, "POST /graphql")
	require.Contains(t, names(got), "POST /graphql")
	require.Contains(t, names(got), "graphql query Dashboard")
	require.Contains(t, names(got), "SELECT")
	requireNothingSecret(t, got, e.Keys.Sandbox.Secret, "accounts(first")

	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(receiver.Close)
	ep := sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(receiver.URL+"/hook?token=receiver-secret", "account.created"))
	e.StartDelivery(testenv.FastDelivery())
	sk.CreateAccount(testenv.Individual())
	var delivery sdktrace.ReadOnlySpan
	deadline := time.Now().Add(3 * time.Minute) // guards against hanging only
	for delivery == nil {
		for _, s := range rec.Ended() {
			for _, kv := range s.Attributes() {
				if s.Name() == "webhook.deliver" && kv.Key == "webhook.endpoint_id" && kv.Value.AsString() == ep.ID.String() {
					delivery = s
				}
			}
		}
		require.True(t, time.Now().Before(deadline), "no delivery span")
		if delivery == nil {
			require.NoError(t, clock.Sleep(t.Context(), 20*time.Millisecond))
		}
	}
	// The job's span ends after the delivery's, once the job has recorded it.
	var job []sdktrace.ReadOnlySpan
	var jobSpan string
	for jobSpan == "" {
		job = traceOf(rec, delivery.SpanContext().TraceID())
		for _, s := range job {
			if s.SpanContext().SpanID() == delivery.Parent().SpanID() {
				jobSpan = s.Name()
			}
		}
		require.True(t, time.Now().Before(deadline), "the delivery's parent span never ended: %v", names(job))
		if jobSpan == "" {
			require.NoError(t, clock.Sleep(t.Context(), 20*time.Millisecond))
		}
	}
	require.True(t, strings.HasPrefix(jobSpan, "river.work"), "the delivery is a span of its job's: %v", names(job))
	requireNothingSecret(t, job, "receiver-secret", receiver.URL)
}
