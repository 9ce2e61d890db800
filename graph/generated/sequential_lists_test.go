package generated

import (
	"bytes"
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// withOperation is a context as the executor has it: an operation, a
// response to collect errors in (panics recovered quietly), and a field
// above the list.
func withOperation() context.Context {
	ctx := graphql.WithOperationContext(context.Background(), &graphql.OperationContext{})
	ctx = graphql.WithResponseContext(ctx, graphql.DefaultErrorPresenter,
		func(context.Context, any) error { return gqlerror.Errorf("internal system error") })
	return graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: "Query"})
}

func TestListsMarshalInOrderWithEachElementsIndex(t *testing.T) {
	ctx := withOperation()
	parent := graphql.GetFieldContext(ctx)
	var order []int
	got := marshalSliceInSequence(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		fc := graphql.GetFieldContext(ctx)
		if fc.Index == nil || *fc.Index != i || fc.Parent != parent {
			t.Fatalf("element %d: field context index %v, parent %p", i, fc.Index, fc.Parent)
		}
		order = append(order, i)
		return graphql.MarshalInt(i)
	})
	var b bytes.Buffer
	got.MarshalGQL(&b)
	if b.String() != "[0,1,2]" || len(order) != 3 || order[0] != 0 || order[2] != 2 {
		t.Fatalf("got %s, order %v", b.String(), order)
	}
	if empty := marshalSliceInSequence(ctx, 0, 0, false, nil); empty == nil || len(empty) != 0 {
		t.Fatalf("an empty list is %v, want []", empty)
	}
}

// The elements' indexes and field contexts cost the same few allocations
// whatever the list's length: the array, the indexes and the contexts.
func TestListElementsContextsAreAllocatedTogether(t *testing.T) {
	ctx := withOperation()
	element := func(context.Context, int) graphql.Marshaler { return graphql.Null }
	for _, n := range []int{1, 50} {
		for _, omitPanicHandler := range []bool{false, true} {
			if allocs := testing.AllocsPerRun(50, func() {
				marshalSliceInSequence(ctx, n, 0, omitPanicHandler, element)
			}); allocs > 3 {
				t.Errorf("a list of %d elements costs %v allocations, want 3", n, allocs)
			}
		}
	}
}

// A panic while marshalling an element becomes an error and the list null,
// as with gqlgen's concurrent marshaller, and the other elements are still
// marshalled.
func TestAPanickingElementBecomesAnErrorAndTheListNull(t *testing.T) {
	ctx := withOperation()
	marshalled := 0
	got := marshalSliceInSequence(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		marshalled++
		if i == 1 {
			panic("boom")
		}
		return graphql.MarshalInt(i)
	})
	if got != nil {
		t.Fatalf("list after a panic: %v, want nil", got)
	}
	if marshalled != 3 {
		t.Fatalf("marshalled %d elements, want 3", marshalled)
	}
	errs := graphql.GetErrors(ctx)
	if len(errs) != 1 || len(errs[0].Path) != 1 || errs[0].Path[0] != ast.PathIndex(1) {
		t.Fatalf("errors %v, want one at the element's index", errs)
	}
}
