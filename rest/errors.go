// Package rest serves the documented /v1 JSON contract. A handler is a route
// line plus decoding: it calls the resolver and renders the result; every
// domain rule lives in the resolvers.
package rest

import (
	"log/slog"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// envelope is the one error body of the API (API-DECISIONS §2). The
// real service's official clients each read a different member for the
// human message (Node: message; iOS, Android, React Native and the CLI:
// error_details.message; Ruby: error), so error, message and
// error_details.message carry the same sentence, and field problems sit
// both in error_details.errors and in error_details.data.errors (where the
// CLI reads them). docs/decisions.md has what each client shows.
type envelope struct {
	Status       int            `json:"status"`
	Error        string         `json:"error"`
	Code         string         `json:"code"`
	Message      string         `json:"message"`
	Param        string         `json:"param,omitempty"`
	ErrorDetails errorDetails   `json:"error_details"`
	Details      map[string]any `json:"details,omitempty"`
	RequestID    string         `json:"request_id"`
}

type errorDetails struct {
	Message string              `json:"message"`
	Data    map[string]any      `json:"data,omitempty"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// newErrorDetails is error_details: the message, the rule's data and the
// field problems, which data repeats under "errors".
func newErrorDetails(msg string, data map[string]any, fields map[string][]string) errorDetails {
	if fields != nil {
		withErrors := make(map[string]any, len(data)+1)
		for k, v := range data {
			withErrors[k] = v
		}
		withErrors["errors"] = fields
		data = withErrors
	}
	return errorDetails{Message: msg, Data: data, Errors: fields}
}

// WriteError renders err in the envelope. This is the only place REST maps
// errors; an unknown error becomes a 500 whose cause is logged, not shown.
// Messages, params and field paths may echo input (an unknown path, an id,
// a metadata key): a credential in them is redacted (httpx.Redact), in the
// body and in the log.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := apierr.From(err)
	rid := httpx.RequestIDFromContext(r.Context())
	if level, ok := e.Logged(); ok {
		slog.Log(r.Context(), level, "request failed", "request_id", rid, "code", e.Code,
			"error", httpx.Redact(err.Error()))
	}
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	msg := httpx.Redact(e.Message)
	writeJSON(w, e.Status, envelope{
		Status: e.Status, Error: msg, Code: e.Code, Message: msg, Param: httpx.Redact(e.Param),
		ErrorDetails: newErrorDetails(msg, e.Data, redactFields(e.Fields)),
		Details:      e.Details, RequestID: rid,
	})
}

// redactFields redacts credentials in field paths and problems.
func redactFields(fields map[string][]string) map[string][]string {
	if fields == nil {
		return nil
	}
	out := make(map[string][]string, len(fields))
	for path, problems := range fields {
		rp := make([]string, len(problems))
		for i, p := range problems {
			rp[i] = httpx.Redact(p)
		}
		k := httpx.Redact(path)
		out[k] = append(out[k], rp...)
	}
	return out
}
