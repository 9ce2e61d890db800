package generated

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// marshalSliceInSequence marshals a list's elements one after another in
// the calling goroutine. The executor calls it wherever gqlgen writes
// graphql.MarshalSliceConcurrently, which starts a goroutine per element:
// `make generate` (graph/generate) substitutes it, with the same
// parameters, because the graph's loaders batch by looking ahead and never
// wait for other goroutines, so those goroutines only cost their creation,
// stacks and scheduling.
//
// It answers as gqlgen's does: each element is marshalled under a field
// context holding its index; a panic while marshalling an element becomes
// that element's error and the whole list null, after the other elements
// have been marshalled. workerLimit bounds goroutines, and there are none.
func marshalSliceInSequence(ctx context.Context, length int, workerLimit int64, omitPanicHandler bool,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler,
) graphql.Array {
	ret := make(graphql.Array, length)
	if length == 0 {
		return ret
	}
	// One allocation for every element's index, and one for every
	// element's field context with the context value carrying it
	// (graphql.WithFieldContext's, in a scope of the same answers), which
	// gqlgen's marshaller allocates one by one: three an element of each of
	// the 200 elements of a page of 50 accounts with their capabilities.
	indexes := make([]int, length)
	scopes := make([]scalarFieldScope, length)
	parent := graphql.GetFieldContext(ctx)
	panicked := false
	for i := range length {
		indexes[i] = i
		scopes[i] = scalarFieldScope{Context: ctx, fc: graphql.FieldContext{Parent: parent, Index: &indexes[i]}}
		childCtx := context.Context(&scopes[i])
		if omitPanicHandler {
			ret[i] = marshalElement(childCtx, i)
			continue
		}
		if !marshalRecovering(childCtx, i, ret, marshalElement) {
			panicked = true
		}
	}
	if panicked {
		return nil
	}
	return ret
}

// marshalRecovering marshals element i into ret[i], turning a panic into
// the element's error; ok is false when it panicked.
func marshalRecovering(ctx context.Context, i int, ret graphql.Array,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler,
) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			graphql.AddError(ctx, graphql.Recover(ctx, r))
			ok = false
		}
	}()
	ret[i] = marshalElement(ctx, i)
	return true
}
