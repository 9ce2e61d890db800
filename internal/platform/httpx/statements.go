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
		next.ServeHTTP(OnHeader(w, func(h http.Header) {
			if c := store.StatementCount(r.Context()); c != nil {
				h.Set(StatementCountHeader, strconv.FormatInt(c.Load(), 10))
			}
		}), r)
	})
}
