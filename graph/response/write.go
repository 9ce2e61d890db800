package response

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
)

// Write writes resp as its JSON body with status. A response that is data
// alone (every query that succeeds) is written around the data as gqlgen
// rendered it: json.Marshal would check and compact the rendered data once
// more, a copy of the whole body that cost about a seventh of the handler
// for a page of 50 accounts. gqlgen renders valid, compact JSON; strings
// keep <, > and & as they are instead of json.Marshal's \u003c escapes,
// which any JSON reader reads as the same text.
func Write(w http.ResponseWriter, status int, resp *graphql.Response) {
	if dataOnly(resp) {
		// Written around the data, not copied with it into one slice:
		// the response writer buffers the pieces.
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"data":`)
		_, _ = w.Write(resp.Data)
		_, _ = io.WriteString(w, `}`)
		return
	}
	b, err := json.Marshal(resp)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"errors":[{"message":"An internal error occurred","extensions":{"code":"internal_error","status":500}}]}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// dataOnly reports whether resp's JSON is {"data": resp.Data} and nothing
// else (no errors, no extensions, no incremental delivery members).
func dataOnly(resp *graphql.Response) bool {
	return len(resp.Data) > 0 && len(resp.Errors) == 0 && resp.Label == "" && resp.Path == nil &&
		resp.HasNext == nil && len(resp.Extensions) == 0
}
