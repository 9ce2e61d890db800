package rest

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// renderFailed is the body when a response cannot be rendered.
var renderFailed = []byte(`{"status":500,"error":"The response could not be rendered","code":"internal_error",` +
	`"message":"The response could not be rendered","error_details":{"message":"The response could not be rendered"}}`)

// buffers recycles response buffers: a page of 100 accounts is ~300 KB.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps one huge response from pinning its memory.
const maxPooledBuffer = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := buffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			buffers.Put(buf)
		}
	}()
	if err := jsonbody.Append(buf, v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.Write(renderFailed)
	}
	buf.WriteByte('\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// respond renders v with status, or err in the envelope.
func respond(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// respondPage renders a page of results served at the request's path as
// the {meta, data} body of list endpoints, each item as jsonbody.Append
// renders it.
func respondPage[T any](w http.ResponseWriter, r *http.Request, page op.Page[T], err error) {
	respondPageAs(w, r, "data", page, err)
}

// respondPageAs is respondPage with the items under key: the spec names
// some lists' items ({meta, subscriptions}).
func respondPageAs[T any](w http.ResponseWriter, r *http.Request, key string, page op.Page[T], err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonbody.Page[T]{Meta: page.Meta(r.URL.Path), Key: key, Items: page.Items})
}
