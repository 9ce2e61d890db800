package rest

import (
	"encoding"
	"encoding/json"
	"path"
	"reflect"
	"regexp"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// schemaSet derives the JSON Schemas of the document from Go types and
// their json tags, collecting every named type as a component.
//
// Responses and request bodies are reflected apart, because encoding/json
// reads and writes them differently: a response renders every member not
// tagged omitempty, and no other (required, additionalProperties false),
// while a request body may leave out any member (absent means unchanged or
// invalid, which the operation answers 422) and may carry members the
// server ignores. Request components are named with the request. prefix.
type schemaSet struct {
	out, in *jsonschema.Reflector
	defs    map[string]*jsonschema.Schema
	types   map[string]reflect.Type
}

func newSchemaSet() *schemaSet {
	s := &schemaSet{defs: map[string]*jsonschema.Schema{}, types: map[string]reflect.Type{}}
	s.out = &jsonschema.Reflector{Anonymous: true, Mapper: responseSchema,
		Namer: func(t reflect.Type) string { return s.name("", t) }}
	s.in = &jsonschema.Reflector{Anonymous: true, Mapper: wireSchema, AllowAdditionalProperties: true,
		RequiredFromJSONSchemaTags: true, Namer: func(t reflect.Type) string { return s.name("request.", t) }}
	return s
}

// response is the schema of a response body of type t.
func (s *schemaSet) response(t reflect.Type) *jsonschema.Schema {
	return s.reflect(s.out, t)
}

// request is the schema of a request body of type t.
func (s *schemaSet) request(t reflect.Type) *jsonschema.Schema { return s.reflect(s.in, t) }

func (s *schemaSet) reflect(r *jsonschema.Reflector, t reflect.Type) *jsonschema.Schema {
	root := r.ReflectFromType(t)
	for name, def := range root.Definitions {
		if _, done := s.defs[name]; !done {
			s.defs[name] = def
			allowNull(def, s.types[name])
			if amend := modelAmendments[s.types[name]]; amend != nil && r == s.out {
				amend(def)
			}
			if r == s.out {
				sdkNames(def, s.types[name])
			}
		}
	}
	root.Definitions, root.Version = nil, ""
	allowNull(root, t)
	return root
}

// packagePath matches the import paths in a generic type's name.
var packagePath = regexp.MustCompile(`[\w.\-]*/`)

// notInName matches what a component name may not hold.
var notInName = regexp.MustCompile(`[^A-Za-z0-9._\-]+`)

// name is the component name of t: its Go name, qualified by its package
// outside models, with prefix. An unnamed type is inlined.
func (s *schemaSet) name(prefix string, t reflect.Type) string {
	n := t.Name()
	if n == "" {
		return ""
	}
	if pkg := path.Base(t.PkgPath()); pkg != "models" {
		n = pkg + "." + n
	}
	n = prefix + strings.Trim(notInName.ReplaceAllString(packagePath.ReplaceAllString(n, ""), "_"), "_")
	s.types[n] = t
	return n
}

var (
	timestampType = reflect.TypeFor[wire.Timestamp]()
	isoTimeType   = reflect.TypeFor[wire.ISOTime]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// wireSchema is the schema of a type that renders itself: what its
// MarshalJSON or MarshalText writes rather than its Go fields. Nil leaves
// the type to reflection.
func wireSchema(t reflect.Type) *jsonschema.Schema {
	switch t {
	case timestampType:
		return orNull(&jsonschema.Schema{Type: "integer", Description: "Unix seconds"})
	case isoTimeType:
		return orNull(&jsonschema.Schema{Type: "string", Format: "date-time"})
	}
	if schema, ok := modelSchemas[t]; ok {
		return schema()
	}
	marshals := t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)
	if marshals && t.Kind() == reflect.Struct && t.Size() == 0 {
		// A zero-size value renders the same always: the object name of a
		// resource (models.Object).
		b, err := reflect.New(t).Interface().(json.Marshaler).MarshalJSON()
		var v any
		if err == nil && json.Unmarshal(b, &v) == nil {
			return &jsonschema.Schema{Const: v}
		}
	}
	if !marshals && (t.Implements(textType) || reflect.PointerTo(t).Implements(textType)) {
		return &jsonschema.Schema{Type: "string"} // an id (uuid.UUID)
	}
	return nil
}

// responseSchema is wireSchema, and for a member of a closed set (a type
// declared with models.Enum) the set's values as its enum: what a
// response can hold. Requests keep plain strings, since an input often
// takes only part of a set (a coupon is created active or inactive) and
// its check answers with the values it takes.
func responseSchema(t reflect.Type) *jsonschema.Schema {
	if values, ok := models.EnumValues(t); ok {
		enum := make([]any, len(values))
		for i, v := range values {
			enum[i] = v
		}
		return &jsonschema.Schema{Type: "string", Enum: enum}
	}
	return wireSchema(t)
}

// orNull is s or null. A schema of any value (true, an interface's) takes
// null already, and stays as it is: OpenAPI's tools read a boolean schema
// inside anyOf as malformed.
func orNull(s *jsonschema.Schema) *jsonschema.Schema {
	if b, err := json.Marshal(s); err == nil && string(b) == "true" {
		return s
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
}

// allowNull lets each member of the struct schema s (of Go type t) that
// encoding/json may render as null be null: a nil pointer, slice, map or
// interface not tagged omitempty. It follows inline (unnamed) types;
// named ones are components, amended once each.
func allowNull(s *jsonschema.Schema, t reflect.Type) {
	if s == nil || t == nil || s.Ref != "" {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		allowNull(s.Items, t.Elem())
		return
	case reflect.Map:
		if s.AdditionalProperties != nil {
			allowNull(s.AdditionalProperties, t.Elem())
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if s.Properties == nil || wireSchema(t) != nil {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			allowNull(s, f.Type) // its members are s's
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, ok := s.Properties.Get(name)
		if !ok {
			continue
		}
		allowNull(p, f.Type)
		omitted := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if !omitted {
				s.Properties.Set(name, orNull(p))
			}
		}
	}
}
