package models

import "encoding/json"

// sdkMember is a member the real service's SDK reads under its own name
// beside the one the spec gives (coupon_id beside coupon, account_id beside
// account): the same value, sent under both names so that integrations
// written against either keep working. docs/decisions.md lists them.
//
// A second name is declared once, on the field it renders: a struct tag
// sdk:"coupon_id" beside json:"coupon". `make generate` (models/generate)
// writes the MarshalJSON of each type with such a field into
// codecs_generated.go, which appends the tagged fields here (and a
// redaction's members, wire:"redacts:…").
type sdkMember struct {
	name  string
	value any
}

// withSDKMembers appends members to obj, the rendered JSON object of a
// resource, keeping it compact. Appending, rather than declaring the
// duplicate as a second struct field, keeps one Go field per column, so
// gqlgen binds and every code path fills exactly one value.
func withSDKMembers(obj []byte, members ...sdkMember) ([]byte, error) {
	out := obj[:len(obj)-1] // drop the closing brace
	for _, m := range members {
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, m.name...)
		out = append(out, '"', ':')
		out = append(out, v...)
	}
	return append(out, '}'), nil
}
