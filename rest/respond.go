package rest

import (
	"encoding/json"
	"net/http"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"status":500,"error":"Internal Server Error","code":"internal_error","message":"response could not be rendered"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// respond renders v with status, or err in the envelope.
func respond(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// listBody is the {meta, data} body of list endpoints.
type listBody[T any] struct {
	Meta models.ListMeta `json:"meta"`
	Data []T             `json:"data"`
}

// respondPage renders a page of results served at the request's path.
func respondPage[T any](w http.ResponseWriter, r *http.Request, page op.Page[T], err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, listBody[T]{Meta: page.Meta(r.URL.Path), Data: page.Items})
}
