package httpx

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the server's Prometheus collectors, on their own registry so
// that several servers in one test process do not collide.
type Metrics struct {
	Registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics builds the collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "http_request_duration_seconds", Help: "HTTP request latency by route and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method"}),
	}
	m.Registry.MustRegister(m.requests, m.duration,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// Middleware records every request.
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now() // clock: process timing only
		ww := statusRecorder(w, r)
		next.ServeHTTP(ww, r)
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		route, method := routePattern(r), MethodLabel(r.Method)
		m.requests.WithLabelValues(route, method, statusLabel(status)).Inc()
		m.duration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
	})
}

// OtherMethod is the method label of every method but the standard ones
// (OpenTelemetry's convention): the client chooses the method, so the
// label must not take its values from it.
const OtherMethod = "_OTHER"

// MethodLabel bounds the method label to the nine standard methods and
// OtherMethod. Routes are bounded already: a request no route matched is
// "unmatched", never its path.
func MethodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return OtherMethod
}

// ObserveInFlight exports l's count as the http_requests_in_flight gauge
// and its refusals as http_requests_refused_total.
func (m *Metrics) ObserveInFlight(l *InFlight) {
	m.Registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "http_requests_in_flight", Help: "Requests in handlers now (bounded by --max-in-flight).",
		}, func() float64 { return float64(l.Count()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "http_requests_refused_total", Help: "Requests answered 503 server_busy.",
		}, func() float64 { return float64(l.Refused()) }))
}

// Handler serves /metrics. A collector that fails is left out of the
// answer (and logged), never turned into a plain-text 500.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError,
		ErrorLog: slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn)})
}

// statusRecorder is w when it records the status already (the request
// log's writer, just outside the metrics), or w wrapped to record it: one
// wrapper a request rather than one per middleware that reads the status.
func statusRecorder(w http.ResponseWriter, r *http.Request) middleware.WrapResponseWriter {
	if ww, ok := w.(middleware.WrapResponseWriter); ok {
		return ww
	}
	return middleware.NewWrapResponseWriter(w, r.ProtoMajor)
}

// statusLabels are the status label's values, made once: strconv.Itoa
// allocates for every number above 99.
var statusLabels = func() (labels [600]string) {
	for status := 100; status < len(labels); status++ {
		labels[status] = strconv.Itoa(status)
	}
	return labels
}()

// statusLabel is strconv.Itoa(status).
func statusLabel(status int) string {
	if status >= 100 && status < len(statusLabels) {
		return statusLabels[status]
	}
	return strconv.Itoa(status)
}
