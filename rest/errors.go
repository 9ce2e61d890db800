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

// envelope is the one error body of the API (API-DECISIONS §2).
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

// WriteError renders err in the envelope. This is the only place REST maps
// errors; an unknown error becomes a 500 whose cause is logged, not shown.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := apierr.From(err)
	rid := httpx.RequestIDFromContext(r.Context())
	if e.Status >= 500 {
		slog.ErrorContext(r.Context(), "request failed", "request_id", rid, "code", e.Code, "error", err)
	}
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	writeJSON(w, e.Status, envelope{
		Status: e.Status, Error: http.StatusText(e.Status), Code: e.Code, Message: e.Message, Param: e.Param,
		ErrorDetails: errorDetails{Message: e.Message, Data: e.Data, Errors: e.Fields},
		Details:      e.Details, RequestID: rid,
	})
}
