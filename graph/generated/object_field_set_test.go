package generated

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// An object's field set writes what gqlgen's FieldSet writes for the
// same fields and values: in order, a repeated alias once with its first
// value, below and above the inline values and the look-back bound.
func TestObjectFieldSetWritesAsGQLGensFieldSet(t *testing.T) {
	for _, n := range []int{0, 1, 3, inlineValues, inlineValues + 1, lookBackFields, lookBackFields + 1, 3 * lookBackFields} {
		for _, repeatEvery := range []int{0, 2, 5} {
			fields := make([]graphql.CollectedField, n)
			for i := range fields {
				alias := fmt.Sprintf("f%d", i)
				if repeatEvery > 0 && i%repeatEvery == repeatEvery-1 {
					alias = fmt.Sprintf("f%d", i/2) // an alias written before
				}
				fields[i] = graphql.CollectedField{Field: &ast.Field{Alias: alias, Name: "x"}}
			}
			theirs, ours := graphql.NewFieldSet(fields), newObjectFieldSet(fields)
			for i := range fields {
				v := graphql.MarshalString(fmt.Sprintf("v%d", i))
				theirs.Values[i], ours.Values[i] = v, v
			}
			var want, got bytes.Buffer
			theirs.MarshalGQL(&want)
			ours.MarshalGQL(&got)
			if got.String() != want.String() {
				t.Fatalf("%d fields, repeat every %d:\n got %s\nwant %s", n, repeatEvery, got.String(), want.String())
			}
		}
	}
}

// The set holds its @defer set and, for a small object, its values,
// besides the one allocation of the set itself.
func TestObjectFieldSetIsOneAllocation(t *testing.T) {
	fields := make([]graphql.CollectedField, inlineValues)
	for i := range fields {
		fields[i] = graphql.CollectedField{Field: &ast.Field{Alias: fmt.Sprintf("f%d", i)}}
	}
	var sink *graphql.FieldSet
	allocs := testing.AllocsPerRun(100, func() {
		s := newObjectFieldSet(fields)
		sink = s.objectDeferredSet()
	})
	if allocs != 1 {
		t.Fatalf("%v allocations, want 1", allocs)
	}
	_ = sink
}
