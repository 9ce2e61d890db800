package models

import (
	"bytes"
	"encoding/json"
)

// The readings of request types that differ from encoding/json's are
// declared on their fields (wire:"alternatives", into, null) and written
// by models/generate into codecs_generated.go; these are what that code
// calls.

// carried records, in a struct of alternative members, the name each
// member's value was read under when it came from an alternative
// (discount_value from percent_off), so a problem with the value names
// what the client sent.
type carried map[string]string

// note records that member's value was read from the alternative from.
func (c *carried) note(member, from string) {
	if *c == nil {
		*c = carried{}
	}
	(*c)[member] = from
}

// name is the member the value of member was read under: member itself
// unless an alternative was carried into it.
func (c carried) name(member string) string {
	if from, ok := c[member]; ok {
		return from
	}
	return member
}

// sentNull are the members of a body sent as null.
type sentNull map[string]bool

// membersSentNull lists the members of the JSON object b sent as null.
func membersSentNull(b []byte) (sentNull, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := sentNull{}
	for member, v := range raw {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			out[member] = true
		}
	}
	return out, nil
}

// flag is a pointer to true when member was sent as null, else nil.
func (s sentNull) flag(member string) *bool {
	if !s[member] {
		return nil
	}
	t := true
	return &t
}
