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
// its member, and a derived one (sdk:"enabled,derived:Enabled") is
// described by the type of what its method gives.
func sdkNames(s *jsonschema.Schema, t reflect.Type) {
	if t == nil || t.Kind() != reflect.Struct || s.Properties == nil {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		second, ok := f.Tag.Lookup("sdk")
		if !ok {
			continue
		}
		second, derived, isDerived := strings.Cut(second, ",derived:")
		if isDerived {
			if m, ok := f.Type.MethodByName(derived); ok && m.Type.NumOut() == 1 {
				member(second, derivedSchema(m.Type.Out(0)))(s)
			}
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "-" {
			alias(second, name)(s)
		} else {
			member(second, wireSchema(f.Type))(s)
		}
	}
}

// derivedSchema describes the value a derived member's method gives: a
// wire type as wireSchema does, a plain boolean, number or string by its
// kind.
func derivedSchema(t reflect.Type) *jsonschema.Schema {
	if s := wireSchema(t); s != nil {
		return s
	}
	switch t.Kind() {
	case reflect.Bool:
		return &jsonschema.Schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &jsonschema.Schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &jsonschema.Schema{Type: "number"}
	}
	return &jsonschema.Schema{Type: "string"}
}
