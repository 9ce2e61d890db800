package generated

import (
	"context"
	"errors"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// The executor resolves every field of every object through the three
// functions below, which `make generate` (graph/generate) substitutes for
// gqlgen's own, with the same parameters and the same answers. A page of
// 50 accounts with three capabilities each is some 650 field resolutions
// and 250 objects, and what gqlgen's runtime allocated for each of them,
// besides the field's context and value, was a third of the request's
// allocations (docs/performance.md, "The GraphQL page of 50 accounts").

// resolveField is graphql.ResolveField, except that a field that is not a
// resolver (a struct field, or a method of the model without a context)
// is read without the field middleware chain (the handler's AroundFields):
// every middleware the handler installs acts on resolver fields only
// (graph/handler.go), and the chain cost a closure per middleware per
// field. A field with directives, or a resolver, goes through the chain as
// in gqlgen. A panic, a nil for a non-null field and a value of the wrong
// type are answered as gqlgen answers them.
func resolveField[T any](
	ctx context.Context,
	oc *graphql.OperationContext,
	field graphql.CollectedField,
	initializeFieldContext func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error),
	fieldResolver func(ctx context.Context) (any, error),
	middlewareChain func(ctx context.Context, next graphql.Resolver) graphql.Resolver,
	marshal func(ctx context.Context, sel ast.SelectionSet, v T) graphql.Marshaler,
	recoverFromPanic bool,
	nonNull bool,
) (ret graphql.Marshaler) {
	fc, err := initializeFieldContext(ctx, field)
	if err != nil {
		return graphql.Null
	}
	ctx = graphql.WithFieldContext(ctx, fc)
	if recoverFromPanic {
		defer func() {
			if r := recover(); r != nil {
				oc.Error(ctx, oc.Recover(ctx, r))
				ret = graphql.Null
			}
		}()
	}

	var res any
	if fc.IsResolver || middlewareChain != nil {
		ctx, res, err = throughMiddleware(ctx, oc, fieldResolver, middlewareChain)
	} else {
		res, err = fieldResolver(ctx)
	}
	if err != nil {
		oc.Error(ctx, graphql.AddFieldLocationToError(ctx, err))
		if fc.NonNull && !nonNull {
			return graphql.RequiredNull
		}
		return graphql.Null
	}
	if res == nil {
		if (nonNull || fc.NonNull) && !graphql.HasFieldError(ctx, fc) {
			oc.Errorf(ctx, "must not be null")
		}
		if fc.NonNull && !nonNull {
			return graphql.RequiredNull
		}
		return graphql.Null
	}
	if v, ok := res.(T); ok {
		fc.Result = res // the value as the resolver boxed it, not boxed again
		return marshal(ctx, field.Selections, v)
	}
	if m, ok := res.(graphql.Marshaler); ok {
		fc.Result = m
		return m
	}
	var t T
	oc.Errorf(ctx, `unexpected type %T from middleware/directive chain, should be %T`, res, t)
	return graphql.Null
}

// throughMiddleware resolves a field through its directives and the field
// middleware, as gqlgen does, and returns the context the innermost
// resolver was given (the field's children are resolved under it).
func throughMiddleware(
	ctx context.Context,
	oc *graphql.OperationContext,
	fieldResolver func(ctx context.Context) (any, error),
	middlewareChain func(ctx context.Context, next graphql.Resolver) graphql.Resolver,
) (context.Context, any, error) {
	next := func(rctx context.Context) (any, error) {
		ctx = rctx
		return fieldResolver(rctx)
	}
	if middlewareChain != nil {
		next = middlewareChain(ctx, next)
	}
	res, err := oc.ResolverMiddleware(ctx, next)
	return ctx, res, err
}

// scalarFieldContext is graphql.NewScalarFieldContext without the error
// value gqlgen's executor built on every call for the case of a scalar
// asked for its children: that answer is made once per type.
func scalarFieldContext(object string, field graphql.CollectedField, isMethod, isResolver bool, typeName string) (*graphql.FieldContext, error) {
	return &graphql.FieldContext{Object: object, Field: field, IsMethod: isMethod, IsResolver: isResolver,
		Child: noChildFields(typeName)}, nil
}

// childlessTypes holds, by type name, the Child function of a scalar
// field's context: one per scalar or enum of the schema.
var childlessTypes sync.Map // string → func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error)

func noChildFields(typeName string) func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error) {
	if f, ok := childlessTypes.Load(typeName); ok {
		return f.(func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error))
	}
	err := errors.New("field of type " + typeName + " does not have child fields")
	f, _ := childlessTypes.LoadOrStore(typeName, func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error) {
		return nil, err
	})
	return f.(func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error))
}

// deferredPath is the path of an object's @defer group: gqlgen's executor
// built it for every object it marshalled (an allocation per level of the
// path, the list indexes included), and reads it only for an object with
// deferred fragments.
func deferredPath(ctx context.Context, defers map[string]*graphql.FieldSetView) ast.Path {
	if len(defers) == 0 {
		return nil
	}
	return graphql.GetPath(ctx)
}

// resolvePlainField is resolveField for a field read from the model
// without a resolver: a struct field, or a method of the model without a
// context or an error. Its value comes typed, not in an interface (an
// allocation for every string, uuid or slice), and neither the function
// reading it nor the value escapes, so reading the field allocates
// nothing beyond its context and its marshaler. Such a field has no
// directives, so the field middleware, which acts on resolver fields only,
// is not run for it; a field context that says otherwise (a resolver)
// goes through resolveField.
//
// The field's Result in its context is set for a field with a selection
// (an object or a list of them), whose children may look at it, and left
// unset for a scalar, which has none.
func resolvePlainField[T any](
	ctx context.Context,
	oc *graphql.OperationContext,
	field graphql.CollectedField,
	initializeFieldContext func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error),
	fieldResolver func(ctx context.Context) (T, error),
	marshal func(ctx context.Context, sel ast.SelectionSet, v T) graphql.Marshaler,
	recoverFromPanic bool,
	nonNull bool,
) graphql.Marshaler {
	fc, err := initializeFieldContext(ctx, field)
	if err != nil {
		return graphql.Null
	}
	return resolvePlainValue(graphql.WithFieldContext(ctx, fc), oc, fc, field, fieldResolver, marshal, recoverFromPanic, nonNull)
}

// resolvePlainValue reads and marshals a plain field's value under ctx,
// which carries the field's context fc (resolvePlainField,
// resolveScalarField).
func resolvePlainValue[T any](
	ctx context.Context,
	oc *graphql.OperationContext,
	fc *graphql.FieldContext,
	field graphql.CollectedField,
	fieldResolver func(ctx context.Context) (T, error),
	marshal func(ctx context.Context, sel ast.SelectionSet, v T) graphql.Marshaler,
	recoverFromPanic bool,
	nonNull bool,
) (ret graphql.Marshaler) {
	if recoverFromPanic {
		defer func() {
			if r := recover(); r != nil {
				oc.Error(ctx, oc.Recover(ctx, r))
				ret = graphql.Null
			}
		}()
	}
	v, err := fieldResolver(ctx)
	if err != nil {
		oc.Error(ctx, graphql.AddFieldLocationToError(ctx, err))
		return graphql.Null
	}
	if any(v) == nil { // only an interface type can be nil here
		if nonNull && !graphql.HasFieldError(ctx, fc) {
			oc.Errorf(ctx, "must not be null")
		}
		return graphql.Null
	}
	if len(field.Selections) > 0 {
		fc.Result = v
	}
	return marshal(ctx, field.Selections, v)
}
