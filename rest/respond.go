package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"sync"

	"github.com/frame-oss/payments-server/resolvers/op"
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
	if err := appendJSON(buf, v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.Write(renderFailed)
	}
	buf.WriteByte('\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// appendJSON renders v onto buf. A value that renders itself
// (json.Marshaler, such as an account choosing the fields its caller may
// see) is written as it renders: encoding/json would scan and copy that
// output once more to compact it, which measured two thirds of the cost of
// rendering an account. Our marshalers emit compact JSON, HTML-escaped like
// encoding/json's own output; a model that appends its JSON to a byte
// slice (byteAppender) writes it into the buffer directly.
func appendJSON(buf *bytes.Buffer, v any) error {
	if a, ok := v.(jsonAppender); ok {
		return a.appendJSON(buf)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		buf.WriteString("null") // as encoding/json renders it; a value-receiver MarshalJSON would panic
		return nil
	}
	if a, ok := v.(byteAppender); ok {
		b, err := a.AppendJSON(buf.AvailableBuffer())
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	if m, ok := v.(json.Marshaler); ok {
		b, err := m.MarshalJSON()
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
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
// the {meta, data} body of list endpoints, each item as appendJSON renders
// it.
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
	writeJSON(w, http.StatusOK, pageBody[T]{meta: page.Meta(r.URL.Path), key: key, items: page.Items})
}

// jsonAppender is a body that renders itself straight onto the response
// buffer.
type jsonAppender interface{ appendJSON(*bytes.Buffer) error }

// byteAppender is a model that renders its compact JSON onto a byte slice
// (models.Account): rendered into the buffer's spare capacity, a page of
// them is written without a copy per item.
type byteAppender interface {
	AppendJSON([]byte) ([]byte, error)
}

// pageBody renders {"meta": ..., key: [...]}; an empty key is "data",
// the envelope of most lists. A list the spec names otherwise carries its
// items under "data" too.
type pageBody[T any] struct {
	meta  any
	key   string
	items []T
}

// appendJSON renders the page, items one by one through appendJSON.
func (p pageBody[T]) appendJSON(buf *bytes.Buffer) error {
	buf.WriteString(`{"meta":`)
	if err := appendJSON(buf, p.meta); err != nil {
		return err
	}
	key := p.key
	if key == "" {
		key = "data"
	}
	buf.WriteString(`,`)
	if err := appendJSON(buf, key); err != nil {
		return err
	}
	buf.WriteString(`:`)
	start := buf.Len()
	buf.WriteByte('[')
	for i, item := range p.items {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := appendJSON(buf, item); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	if key != "data" {
		// The items again under "data", copied rather than rendered twice.
		// The real service's SDKs read every list from "data" (Ruby builds
		// its list objects from it), while the spec names a few lists'
		// arrays: both are sent (docs/decisions.md).
		n := buf.Len() - start
		buf.Grow(len(`,"data":`) + n) // so the copy's source stays in place
		buf.WriteString(`,"data":`)
		items := buf.Bytes()[start : start+n]
		buf.Write(items)
	}
	buf.WriteByte('}')
	return nil
}
