package events

import (
	"bytes"
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
// previous_attributes is a map that encoding/json writes with its keys
// sorted and its numbers as float64s, which jsonb's text (keys by length,
// numbers as written) does not match, so that member alone (a few changed
// members, small beside the object) is still decoded into the map, and
// encoded again when the data is written; the object stays as read.
// Data of any other shape is decoded and encoded as before.

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
	if rendered, previous, ok := compactObjectFirst(text); ok {
		read := Data{Object: json.RawMessage(rendered[len(dataObjectPrefix) : len(rendered)-1]), rendered: rendered}
		if previous == nil || json.Unmarshal(previous, &read.PreviousAttributes) == nil {
			*d = read
			return nil
		}
	}
	var plain plainData
	if err := json.Unmarshal(text, &plain); err != nil {
		return fmt.Errorf("events: data: %w", err)
	}
	*d = Data(plain)
	return nil
}

// MarshalJSON implements json.Marshaler: the bytes Scan kept while the
// object is still the one it read (Object the same slice of them), with
// the previous attributes encoded after it by encoding/json, else
// encoding/json's rendering of the members.
func (d Data) MarshalJSON() ([]byte, error) {
	if !d.readAsIs() {
		return json.Marshal(plainData(d))
	}
	if len(d.PreviousAttributes) == 0 { // omitempty, as encoding/json
		return d.rendered, nil
	}
	previous, err := json.Marshal(d.PreviousAttributes)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(d.rendered)+len(previousMember)+len(previous))
	out = append(out, d.rendered[:len(d.rendered)-1]...)
	out = append(out, previousMember...)
	out = append(out, previous...)
	return append(out, '}'), nil
}

// readAsIs reports whether rendered still renders d's object.
func (d Data) readAsIs() bool {
	n := len(dataObjectPrefix)
	return d.rendered != nil && len(d.Object) > 0 &&
		len(d.rendered) == n+len(d.Object)+1 && &d.rendered[n] == &d.Object[0]
}

// previousMember opens the previous attributes after the object, in the
// compact text encoding/json writes.
const previousMember = `,"previous_attributes":`

// plainData is Data without its methods, for encoding/json: the same
// members, declared once on Data.
type plainData Data

// compactObjectFirst rewrites text, the jsonb text PostgreSQL gives for
// an event's data, as encoding/json writes a json.RawMessage: without the
// spaces between tokens, with <, >, & and U+2028/U+2029 escaped inside
// strings. ok is false unless the data is an object whose first member is
// "object" and whose second, if any, is "previous_attributes" (jsonb
// orders members by the length of their names, so the object comes
// first). rendered is the compact text of the object alone,
// {"object":…}; previous the compact text of the previous attributes'
// value, nil when there is none. The text of a string is copied a run at
// a time, up to the next byte that needs a look.
func compactObjectFirst(text []byte) (rendered, previous []byte, ok bool) {
	out, second, ok := compactMembers(text)
	if !ok || string(out[:len(dataObjectPrefix)]) != dataObjectPrefix {
		return nil, nil, false
	}
	if second == 0 {
		return out, nil, true
	}
	name := previousMember[1:]
	if !bytes.HasPrefix(out[second:], []byte(name)) {
		return nil, nil, false
	}
	previous = out[second+len(name) : len(out)-1]
	out[second-1] = '}' // the object's text ends where the second member began
	return out[:second], previous, true
}

// compactMembers compacts text (compactObjectFirst) and answers where
// its second top-level member starts in out, 0 when the object has one
// member; ok is false unless text is an object of one or two members.
func compactMembers(text []byte) (out []byte, second int, ok bool) {
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
				return out, 0, false
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
				second = len(out) + 1
			}
		}
		out = append(out, c)
	}
	ok = topMembers <= 2 && depth == 0 && len(out) > len(dataObjectPrefix)+1 &&
		out[0] == '{' && out[len(out)-1] == '}'
	return out, second, ok
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
