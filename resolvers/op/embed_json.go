package op

import (
	"bytes"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/buger/jsonparser"
	"github.com/google/uuid"
	"github.com/uptrace/bun/schema"
)

// embedColumn is an Embed's column being read with
// github.com/buger/jsonparser, which walks the text and hands out parts of
// it without copying. A value that is a string is cut from one copy of the
// whole column (text), so a child costs no copy per member.
type embedColumn struct {
	raw  []byte
	text string
}

// value is one value of the column, as the parser hands it (a string's
// content without its quotes, any other value's text), turned into what
// the driver gives a column of its kind to a scanner: nil for null, the
// JSON text of a json or jsonb column (and of an object or an array, for a
// type that reads its column itself), a string, a number's digits, a
// boolean.
func (c *embedColumn) value(v []byte, t jsonparser.ValueType, col carriedColumn) (any, error) {
	switch {
	case t == jsonparser.Null:
		return nil, nil
	case col.json && t == jsonparser.String:
		return append(append([]byte{'"'}, v...), '"'), nil
	case col.json || (col.scanner && (t == jsonparser.Object || t == jsonparser.Array)):
		return v, nil
	}
	switch t {
	case jsonparser.String:
		return c.content(v)
	case jsonparser.Number:
		return v, nil
	case jsonparser.Boolean:
		return jsonparser.ParseBoolean(v)
	}
	return nil, fmt.Errorf("a JSON %s where a column's value is", t)
}

// setText sets the string field f (or the pointer to one) of child from
// a JSON string or null, as Bun's scanner would: null is "" (nil for a
// pointer).
func (c *embedColumn) setText(child reflect.Value, f *schema.Field, v []byte, t jsonparser.ValueType) error {
	fv := f.Value(child)
	if t == jsonparser.Null {
		fv.SetZero()
		return nil
	}
	s, err := c.content(v)
	if err != nil {
		return err
	}
	if fv.Kind() == reflect.Pointer {
		p := reflect.New(fv.Type().Elem())
		p.Elem().SetString(s)
		fv.Set(p)
		return nil
	}
	fv.SetString(s)
	return nil
}

// scanText hands the textScanner field f of child a JSON string's
// content, v unescaped, as Bun's scanner would hand it the string.
func (c *embedColumn) scanText(child reflect.Value, f *schema.Field, v []byte) error {
	s, err := c.content(v)
	if err != nil {
		return err
	}
	return f.Value(child).Addr().Interface().(textScanner).ScanText(s)
}

// setUUID sets the uuid.UUID field f of child from a JSON string or null
// (the zero uuid, as its scanner leaves it), parsed in place.
func setUUID(child reflect.Value, f *schema.Field, v []byte, t jsonparser.ValueType) error {
	dst := f.Value(child).Addr().Interface().(*uuid.UUID)
	if t == jsonparser.Null {
		*dst = uuid.UUID{}
		return nil
	}
	id, err := uuid.ParseBytes(v)
	if err != nil {
		return err
	}
	*dst = id
	return nil
}

// content is the content of the JSON string v (without its quotes),
// unescaped; cut from the column's copy when it has no escape.
func (c *embedColumn) content(v []byte) (string, error) {
	if bytes.IndexByte(v, '\\') >= 0 {
		return jsonparser.ParseString(v)
	}
	return c.str(v), nil
}

// str is v, a part of the column, as a string cut from the column's copy.
func (c *embedColumn) str(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	// The parser's parts share the column's memory: where one starts is
	// the distance between the two.
	i := int(uintptr(unsafe.Pointer(unsafe.SliceData(v))) - uintptr(unsafe.Pointer(unsafe.SliceData(c.raw))))
	if i < 0 || i+len(v) > len(c.raw) {
		return string(v)
	}
	return c.text[i : i+len(v)]
}
