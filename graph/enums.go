package graph

import (
	"context"
	"reflect"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// StrictEnums refuses enum values in variables that are not spelled exactly
// as the schema names them. gqlparser accepts variable enum values in any
// case ("kyc" for KYC), but the executor's enum bindings map exact names to
// the wire values, so a wrongly cased value would otherwise reach a
// resolver as the empty string. Enum literals in the query text are already
// checked exactly by validation.
type StrictEnums struct {
	schema *ast.Schema
}

var _ operationCheck = &StrictEnums{}

// ExtensionName implements graphql.HandlerExtension.
func (*StrictEnums) ExtensionName() string { return "StrictEnums" }

// Validate implements graphql.HandlerExtension.
func (s *StrictEnums) Validate(es graphql.ExecutableSchema) error {
	s.schema = es.Schema()
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (s *StrictEnums) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	for _, def := range oc.Operation.VariableDefinitions {
		v, ok := oc.Variables[def.Variable]
		if !ok {
			continue
		}
		if err := s.check(def.Type, v, ast.Path{ast.PathName("variable"), ast.PathName(def.Variable)}); err != nil {
			errcode.Set(err, errcode.ValidationFailed)
			return err
		}
	}
	return nil
}

func (s *StrictEnums) check(t *ast.Type, v any, path ast.Path) *gqlerror.Error {
	if v == nil || t == nil {
		return nil
	}
	if t.Elem != nil {
		items := reflect.ValueOf(v)
		if items.Kind() != reflect.Slice { // a single value coerced to a list
			return s.check(t.Elem, v, path)
		}
		for i := range items.Len() {
			if err := s.check(t.Elem, items.Index(i).Interface(), append(path, ast.PathIndex(i))); err != nil {
				return err
			}
		}
		return nil
	}
	def := s.schema.Types[t.NamedType]
	if def == nil {
		return nil
	}
	switch def.Kind {
	case ast.Enum:
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.String && def.EnumValues.ForName(rv.String()) == nil {
			name := rv.String()
			return gqlerror.ErrorPathf(path, "%s is not a valid %s", name, def.Name)
		}
	case ast.InputObject:
		fields, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, f := range def.Fields {
			if fv, ok := fields[f.Name]; ok {
				if err := s.check(f.Type, fv, append(path, ast.PathName(f.Name))); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
