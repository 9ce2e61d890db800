package events

import (
	"encoding/json"
	"fmt"
)

// An event's data is written once and read many times (event lists, the
// webhooks, the stream), and it is mostly one rendered object of a few
// kilobytes. Decoding its jsonb text into Data and encoding it again for
// every read cost more than the rest of an event list's request
// (docs/performance.md, "The event list's data and the response buffer").
// PostgreSQL always hands back valid JSON for a jsonb column, so a read
// instead rewrites that text once into what encoding/json would write for
// it (compact, with <, >, & and U+2028/U+2029 escaped) and keeps those
// bytes: Data.Object is a slice of them, and MarshalJSON answers them as
// they are.
//
// Only data whose one member is "object" is read so: previous_attributes
// is a map that encoding/json writes with its keys sorted and its numbers
// as float64s, which jsonb's text (keys by length, numbers as written)
// does not match, so data with it is decoded and encoded as before.

// dataObjectPrefix opens the compact text of data whose first member is
// its object.
const dataObjectPrefix = `{"object":`

// Scan implements sql.Scanner for the events.data column.
func (d *Data) Scan(src any) error {
	var text []byte
	switch v := src.(type) {
	case nil:
		*d = Data{}
		return nil
	case []byte:
		text = v
	case string:
		text = []byte(v)
	default:
		return fmt.Errorf("events: data read from %T", src)
	}
	if rendered, ok := compactObjectOnly(text); ok {
		*d = Data{Object: json.RawMessage(rendered[len(dataObjectPrefix) : len(rendered)-1]), rendered: rendered}
		return nil
	}
	var plain plainData
	if err := json.Unmarshal(text, &plain); err != nil {
		return fmt.Errorf("events: data: %w", err)
	}
	*d = Data(plain)
	return nil
}

// MarshalJSON implements json.Marshaler: the bytes Scan kept while the
// data is still the one it read (Object the same slice of them, no
// previous attributes), else encoding/json's rendering of the members.
func (d Data) MarshalJSON() ([]byte, error) {
	if d.readAsIs() {
		return d.rendered, nil
	}
	return json.Marshal(plainData(d))
}

// readAsIs reports whether rendered still renders d.
func (d Data) readAsIs() bool {
	n := len(dataObjectPrefix)
	return d.rendered != nil && d.PreviousAttributes == nil && len(d.Object) > 0 &&
		len(d.rendered) == n+len(d.Object)+1 && &d.rendered[n] == &d.Object[0]
}

// plainData is Data without its methods, for encoding/json: the same
// members, declared once on Data.
type plainData Data

// compactObjectOnly rewrites text, the jsonb text PostgreSQL gives for an
// event's data, as encoding/json writes a json.RawMessage: without the
// spaces between tokens, with <, >, & and U+2028/U+2029 escaped inside
// strings. ok is false unless the data is an object whose only member is
// "object" (see above). The text of a string is copied a run at a time,
// up to the next byte that needs a look.
func compactObjectOnly(text []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(text))
	depth, topMembers := 0, 1
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			end, closed := 0, false
			out, end, closed = appendString(out, text, i)
			if !closed {
				return out, false
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 1 {
				topMembers++
			}
		}
		out = append(out, c)
	}
	ok = topMembers == 1 && depth == 0 && len(out) > len(dataObjectPrefix)+1 &&
		string(out[:len(dataObjectPrefix)]) == dataObjectPrefix && out[len(out)-1] == '}'
	return out, ok
}

// appendString appends the string that opens at text[start] (a quote) to
// out, escaped as encoding/json escapes a json.RawMessage, and answers the
// index of its closing quote; closed is false when the text ends first.
func appendString(out, text []byte, start int) (_ []byte, end int, closed bool) {
	out = append(out, '"')
	run := start + 1
	for i := run; i < len(text); i++ {
		c := text[i]
		if !stringSpecial[c] {
			continue
		}
		switch {
		case c == '"':
			return append(out, text[run:i+1]...), i, true
		case c == '\\':
			i++ // the escaped byte is copied with the run
		case c == '<' || c == '>' || c == '&':
			out = append(out, text[run:i]...)
			out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			run = i + 1
		case c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && text[i+2]&^1 == 0xA8:
			out = append(out, text[run:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hexDigits[text[i+2]&0xF])
			i += 2
			run = i + 1
		}
	}
	return append(out, text[run:]...), len(text), false
}

// stringSpecial marks the bytes appendString looks at inside a string.
var stringSpecial = [256]bool{'"': true, '\\': true, '<': true, '>': true, '&': true, 0xE2: true}

const hexDigits = "0123456789abcdef"
