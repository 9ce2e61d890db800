package models

import (
	"encoding"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/ids"
)

// What models/json_generated.go calls: each appends one value as
// encoding/json renders it. They know no model: the generated code walks
// the models' fields, these write the values.

// appendString renders s as encoding/json does. A string of plain
// printable ASCII (ids, enum values, most names) is its own content; any
// other is left to encoding/json, which escapes HTML characters, U+2028
// and U+2029, and replaces invalid UTF-8.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s) // a string always renders
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendUUID renders id as its MarshalText does, quoted.
func appendUUID(b []byte, id uuid.UUID) []byte {
	b = append(b, '"')
	b = ids.Append(b, id)
	return append(b, '"')
}

// appendStringMap renders m as encoding/json does: null when nil, its
// keys sorted.
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// appendTextMarshaler renders v's text as a string, as encoding/json
// does.
func appendTextMarshaler(b []byte, v encoding.TextMarshaler) ([]byte, error) {
	text, err := v.MarshalText()
	if err != nil {
		return b, err
	}
	return appendString(b, string(text)), nil
}

// appendMarshaled is encoding/json's rendering of v, for what the
// generated code does not write itself.
func appendMarshaled(b []byte, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, raw...), nil
}
