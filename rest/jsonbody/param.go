package jsonbody

import (
	"reflect"
	"strings"
)

// typeErrorParam turns the field path of a JSON type error into the
// parameter a client sent. encoding/json names a member promoted from an
// embedded struct by its Go path (`Details.first_name`, the embedded
// type's name before the member), which no client wrote: walking the
// decoded type, each segment that names an embedded struct without a JSON
// name of its own is dropped, so the member is `first_name` as on the wire.
func typeErrorParam(decoded reflect.Type, goPath string) string {
	segments := strings.Split(goPath, ".")
	param := make([]string, 0, len(segments))
	t := decoded
	for _, segment := range segments {
		t = elementType(t)
		if t == nil || t.Kind() != reflect.Struct {
			param = append(param, segment)
			t = nil
			continue
		}
		if f, ok := t.FieldByName(segment); ok && len(f.Index) == 1 && promotes(f) {
			t = f.Type
			continue
		}
		param = append(param, segment)
		t = memberType(t, segment)
	}
	return strings.Join(param, ".")
}

// elementType is what a value of t holds once pointers and the elements of
// slices, arrays and maps are looked through (encoding/json's path names
// no index and no key); nil for no type.
func elementType(t reflect.Type) reflect.Type {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return t
		}
	}
	return nil
}

// memberType is the type of the direct field of struct t that decodes the
// JSON member name (encoding/json matches names case-insensitively), nil
// when there is none.
func memberType(t reflect.Type, name string) reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		n := jsonName(f)
		if n == "" && !f.Anonymous {
			n = f.Name
		}
		if strings.EqualFold(n, name) {
			return f.Type
		}
	}
	return nil
}

// promotes reports whether encoding/json promotes the members of the
// embedded field f into its parent: an embedded struct (or pointer to one)
// without a JSON name of its own.
func promotes(f reflect.StructField) bool {
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return f.Anonymous && t.Kind() == reflect.Struct && jsonName(f) == ""
}

// jsonName is the member name a field's json tag gives it, "" when the tag
// gives none.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}
