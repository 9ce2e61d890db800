package httpx

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Entry is a finished request as the request log's observers see it:
// never a header, the query or the body, and the path redacted (Redact).
type Entry struct {
	RequestID  string
	MerchantID string // empty for an anonymous request
	Livemode   bool
	Method     string
	Path       string
	Status     int
	DurationMS float64
}

// Observer is told of every finished request (the live request log).
// Observe must not block.
type Observer interface {
	Observe(Entry)
}

// Log writes one JSON line per request with its id, merchant, status,
// duration and SQL statement count, and tells observers of it. Durations
// are measured with the monotonic wall clock: they are about the process,
// not about domain time. It never logs headers, the query or the body; a
// credential in the path (or the method) is redacted (Redact).
func Log(logger *slog.Logger, observers ...Observer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now() // clock: process timing only
			ctx, statements := store.WithStatementCounter(r.Context())
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			next.ServeHTTP(ww, r.WithContext(ctx))
			ri := Info(ctx)
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			// A 503 is a deliberate refusal (server busy, database down:
			// each logged where it is decided); only other 5xx are errors.
			level := slog.LevelInfo
			switch {
			case status == http.StatusServiceUnavailable:
				level = slog.LevelWarn
			case status >= 500:
				level = slog.LevelError
			}
			end := time.Now() // clock: process timing only
			e := Entry{RequestID: ri.ID, MerchantID: ri.MerchantID, Livemode: ri.Livemode, Method: Redact(r.Method),
				Path: Redact(r.URL.Path), Status: status, DurationMS: float64(end.Sub(start).Microseconds()) / 1000}
			attrs := make([]slog.Attr, 0, requestLineAttrs)
			attrs = append(attrs,
				slog.String("request_id", ri.ID),
				slog.String("method", e.Method),
				slog.String("path", e.Path),
				slog.String("route", routePattern(r)),
				slog.Int("status", status),
				slog.Float64("duration_ms", e.DurationMS),
				slog.Int64("statements", statements.Load()),
				slog.String("merchant_id", ri.MerchantID),
				slog.Bool("livemode", ri.Livemode),
				slog.String("credential", ri.Credential),
			)
			if ri.GraphQLOperationType != "" {
				attrs = append(attrs, slog.String("graphql_operation", ri.GraphQLOperation),
					slog.String("graphql_operation_type", ri.GraphQLOperationType))
			}
			logRequest(ctx, logger, level, end, attrs)
			for _, o := range observers {
				o.Observe(e)
			}
		})
	}
}

// requestLineAttrs is the most attributes a request's line has.
const requestLineAttrs = 12

// logRequest writes the request's line as logger.LogAttrs would, at the
// time the request ended, without the caller's program counter that
// LogAttrs records for a source no handler here prints (runtime.Callers
// over the whole middleware stack, on every request).
func logRequest(ctx context.Context, logger *slog.Logger, level slog.Level, at time.Time, attrs []slog.Attr) {
	if !logger.Enabled(ctx, level) {
		return
	}
	record := slog.NewRecord(at, level, "request", 0)
	record.AddAttrs(attrs...)
	_ = logger.Handler().Handle(ctx, record)
}

func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}
