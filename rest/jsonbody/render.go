package jsonbody

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Append renders v onto buf as encoding/json renders it. A value that
// renders itself (json.Marshaler, such as an account choosing the fields
// its caller may see) is written as it renders: encoding/json would scan and copy that
// output once more to compact it, which measured two thirds of the cost of
// rendering an account. Our marshalers emit compact JSON, HTML-escaped like
// encoding/json's own output; a model that appends its JSON to a byte
// slice (byteAppender) writes it into the buffer directly.
func Append(buf *bytes.Buffer, v any) error {
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

// jsonAppender is a body that renders itself straight onto the response
// buffer.
type jsonAppender interface{ appendJSON(*bytes.Buffer) error }

// byteAppender is a model that renders its compact JSON onto a byte slice
// (models.Account): rendered into the buffer's spare capacity, a page of
// them is written without a copy per item.
type byteAppender interface {
	AppendJSON([]byte) ([]byte, error)
}

// Page is the body of a list: {"meta": Meta, Key: [Items...]}; an empty
// Key is "data", the envelope of most lists. A list the spec names
// otherwise carries its items under "data" too.
type Page[T any] struct {
	Meta  any
	Key   string
	Items []T
}

// appendJSON renders the page, items one by one through Append.
func (p Page[T]) appendJSON(buf *bytes.Buffer) error {
	buf.WriteString(`{"meta":`)
	if err := Append(buf, p.Meta); err != nil {
		return err
	}
	key := p.Key
	if key == "" {
		key = "data"
	}
	buf.WriteString(`,`)
	if err := Append(buf, key); err != nil {
		return err
	}
	buf.WriteString(`:`)
	start := buf.Len()
	buf.WriteByte('[')
	for i, item := range p.Items {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := Append(buf, item); err != nil {
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
