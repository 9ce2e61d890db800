package httpx

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// The metrics count a request under the status the handler wrote, whether
// they wrap the writer themselves or read the request log's.
func TestMetricsCountTheStatusWrittenWithOrWithoutTheLogsWriter(t *testing.T) {
	teapot := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	silent := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	logger := slog.New(slog.DiscardHandler)
	for name, chain := range map[string]func(*Metrics, http.Handler) http.Handler{
		"alone":          func(m *Metrics, h http.Handler) http.Handler { return m.Middleware(h) },
		"inside the log": func(m *Metrics, h http.Handler) http.Handler { return Log(logger)(m.Middleware(h)) },
	} {
		m := NewMetrics()
		for _, h := range []http.Handler{teapot, silent, teapot} {
			chain(m, h).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x", nil))
		}
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		for _, want := range []string{`http_requests_total{method="GET",route="unmatched",status="418"} 2`,
			`http_requests_total{method="GET",route="unmatched",status="200"} 1`} {
			if !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%s: the metrics do not say %s", name, want)
			}
		}
	}
}

func TestStatusLabelIsTheNumber(t *testing.T) {
	for _, status := range []int{-1, 0, 99, 100, 200, 404, 599, 600, 1000} {
		if got := statusLabel(status); got != strconv.Itoa(status) {
			t.Errorf("statusLabel(%d) = %q", status, got)
		}
	}
}
