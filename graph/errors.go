package graph

import (
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/graph/response"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// WriteError answers a /graphql request refused before GraphQL runs (a
// credential that does not authenticate, a rate limit, a busy server) in
// GraphQL's shape, as every other error of /graphql is: {"errors":
// [{message, extensions: {code, status, request_id, ...}}]} with the
// error's HTTP status, which GraphQL over HTTP lets a server use for a
// request it refuses whatever its document. The REST error envelope is
// /v1's.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	p := response.Presenter{Logger: slog.Default(), RequestID: httpx.RequestIDFromContext}
	e := apierr.From(err)
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", responseContentType(r))
	response.Write(w, e.Status, &graphql.Response{Errors: gqlerror.List{p.Present(r.Context(), e)}})
}
