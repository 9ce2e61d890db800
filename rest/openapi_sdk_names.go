package rest

import (
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// sdkNames adds to s, the schema of the model t, the members t renders a
// second time under the names the real service's SDK reads: each field
// tagged sdk (models/sdk_members.go), read from the same tag its
// MarshalJSON is generated from. A field rendered under its sdk name alone
// (json:"-") is described by its own type's schema, another is an alias of
// its member.
func sdkNames(s *jsonschema.Schema, t reflect.Type) {
	if t == nil || t.Kind() != reflect.Struct || s.Properties == nil {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		second, ok := f.Tag.Lookup("sdk")
		if !ok {
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "-" {
			alias(second, name)(s)
		} else {
			member(second, wireSchema(f.Type))(s)
		}
	}
}
