package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Who sees a member of a resource that some callers see only in part (an
// account, a charge intent) is declared on the member's field, in its
// `visible` tag: "merchant" (secret keys only) or "holder" (secret keys and
// the holder's onboarding session); a field without it is seen by every
// caller that may read the resource. The resource renders from its struct
// tags as usual, and the rendering for a caller that may see less leaves
// out the members hidden from it (withoutMembers).

// hiddenMembers reads the `visible` tags of t's fields: "merchant" hides
// a member from every caller but a secret key, "holder" from publishable
// keys and checkout sessions. Any other value is a mistake in the model,
// caught at start-up.
func hiddenMembers(t reflect.Type) [VisiblePublic + 1][]string {
	var hidden [VisiblePublic + 1][]string
	for f := range t.Fields() {
		tag, ok := f.Tag.Lookup("visible")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch tag {
		case "merchant":
			hidden[VisibleToHolder] = append(hidden[VisibleToHolder], name)
			hidden[VisiblePublic] = append(hidden[VisiblePublic], name)
		case "holder":
			hidden[VisiblePublic] = append(hidden[VisiblePublic], name)
		default:
			panic(fmt.Sprintf("models: %s.%s: visible:%q is neither merchant nor holder", t.Name(), f.Name, tag))
		}
	}
	return hidden
}

// withoutMembers is obj, a compact JSON object, without its top-level
// members named in hidden; the others are copied as they were rendered.
// Only the responses to publishable keys and session secrets pay for it.
func withoutMembers(obj []byte, hidden []string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("models: not a JSON object: %.40q", obj)
	}
	out := append(make([]byte, 0, len(obj)), '{')
	for dec.More() {
		start := dec.InputOffset()
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if slices.Contains(hidden, key.(string)) {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		// Compact JSON: the only byte before a member's key is the comma
		// that separates it from the one before.
		out = append(out, bytes.TrimLeft(obj[start:dec.InputOffset()], ",")...)
	}
	return append(out, '}'), nil
}
