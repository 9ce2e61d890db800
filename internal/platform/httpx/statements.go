package httpx

import (
	"net/http"
	"strconv"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// StatementCountHeader carries the number of SQL statements a request ran.
const StatementCountHeader = "X-Statement-Count"

// ReportStatements sets StatementCountHeader when the response starts. It
// must run inside Log, which attaches the counter. Test servers enable it
// to assert that a query's statement count is a constant of its shape.
func ReportStatements(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&statementWriter{ResponseWriter: w, r: r}, r)
	})
}

type statementWriter struct {
	http.ResponseWriter
	r       *http.Request
	written bool
}

func (s *statementWriter) WriteHeader(code int) {
	if !s.written {
		s.written = true
		if c := store.StatementCount(s.r.Context()); c != nil {
			s.Header().Set(StatementCountHeader, strconv.FormatInt(c.Load(), 10))
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statementWriter) Write(b []byte) (int, error) {
	if !s.written {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}
