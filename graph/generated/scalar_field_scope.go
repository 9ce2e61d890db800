package generated

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// A plain field of a scalar or enum type (an id, an amount, a status) is
// most of what a page of objects resolves: every one of them got a field
// context (scalarFieldContext) and a context value carrying it
// (graphql.WithFieldContext), two allocations, though nothing reads them
// unless the field fails. `make generate` (graph/generate) resolves such a
// field through resolveScalarField, whose scalarFieldScope is both in one
// allocation: the same field context, found by graphql.GetFieldContext
// under the same context key, with the same parent.

// scalarField is what scalarFieldContext is given for a field, written by
// `make generate` where the field is resolved.
type scalarField struct {
	object     string
	typeName   string
	isMethod   bool
	isResolver bool
}

// resolveScalarField is resolvePlainField for a field whose context
// scalarFieldContext(desc.object, field, desc.isMethod, desc.isResolver,
// desc.typeName) would make: the same resolution and answers, with the
// field's context and its context value in one allocation.
func resolveScalarField[T any](
	ctx context.Context,
	oc *graphql.OperationContext,
	field graphql.CollectedField,
	desc scalarField,
	fieldResolver func(ctx context.Context) (T, error),
	marshal func(ctx context.Context, sel ast.SelectionSet, v T) graphql.Marshaler,
	recoverFromPanic bool,
	nonNull bool,
) graphql.Marshaler {
	scope := withScalarFieldContext(ctx, field, desc)
	return resolvePlainValue(scope, oc, &scope.fc, field, fieldResolver, marshal, recoverFromPanic, nonNull)
}

// scalarFieldScope is a context carrying a scalar field's context, as
// graphql.WithFieldContext(parent, fc) carries it, in one allocation (a
// list's elements have theirs in one allocation for the list:
// marshalSliceInSequence).
type scalarFieldScope struct {
	context.Context // the object's
	fc              graphql.FieldContext
}

// withScalarFieldContext is graphql.WithFieldContext(ctx,
// scalarFieldContext(...)) for the field desc describes.
func withScalarFieldContext(ctx context.Context, field graphql.CollectedField, desc scalarField) *scalarFieldScope {
	return &scalarFieldScope{Context: ctx, fc: graphql.FieldContext{
		Parent:     graphql.GetFieldContext(ctx),
		Object:     desc.object,
		Field:      field,
		IsMethod:   desc.isMethod,
		IsResolver: desc.isResolver,
		Child:      noChildFields(desc.typeName),
	}}
}

// Value answers the field's context for gqlgen's field context key and
// asks the object's context for any other.
func (s *scalarFieldScope) Value(key any) any {
	if key == fieldContextKey {
		return &s.fc
	}
	return s.Context.Value(key)
}

// fieldContextKey is the context key graphql.GetFieldContext looks a
// field's context up by. gqlgen does not export it; asking
// GetFieldContext to look in a context that notes the key it is asked for
// finds it (TestScalarFieldScopeIsAFieldContext holds the scope to what
// graphql.WithFieldContext makes).
var fieldContextKey = func() any {
	probe := &keyProbe{Context: context.Background()}
	graphql.GetFieldContext(probe)
	return probe.key
}()

// keyProbe is a context that notes the last key it was asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}
