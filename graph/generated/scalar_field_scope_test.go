package generated

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

type otherKey struct{}

// A scalar field's scope is what graphql.WithFieldContext(parent,
// scalarFieldContext(...)) is: graphql.GetFieldContext finds the same
// field context in it, with the same parent and path; every other value,
// the deadline and the cancellation are the parent's.
func TestScalarFieldScopeIsAFieldContext(t *testing.T) {
	base, cancel := context.WithCancel(context.WithValue(context.Background(), otherKey{}, "other"))
	idx := 3
	object := graphql.WithFieldContext(graphql.WithFieldContext(base, &graphql.FieldContext{
		Object: "Query", Field: graphql.CollectedField{Field: &ast.Field{Alias: "refunds", Name: "refunds"}},
	}), &graphql.FieldContext{Index: &idx})
	field := graphql.CollectedField{Field: &ast.Field{Alias: "total", Name: "amount"}}
	for _, desc := range []scalarField{
		{object: "Refund", typeName: "Int"},
		{object: "Account", typeName: "AccountStatus", isMethod: true},
	} {
		wantFC, err := scalarFieldContext(desc.object, field, desc.isMethod, desc.isResolver, desc.typeName)
		if err != nil {
			t.Fatal(err)
		}
		want := graphql.WithFieldContext(object, wantFC)
		got := withScalarFieldContext(object, field, desc)

		gotFC := graphql.GetFieldContext(got)
		if gotFC != &got.fc {
			t.Fatalf("%s: GetFieldContext does not find the scope's field context", desc.typeName)
		}
		if gotFC.Parent != graphql.GetFieldContext(object) {
			t.Errorf("%s: parent %p, want the object's %p", desc.typeName, gotFC.Parent, graphql.GetFieldContext(object))
		}
		if g, w := gotFC.Path().String(), graphql.GetFieldContext(want).Path().String(); g != w {
			t.Errorf("%s: path %q, want %q", desc.typeName, g, w)
		}
		_, gotChildErr := gotFC.Child(got, field)
		_, wantChildErr := wantFC.Child(want, field)
		if gotChildErr == nil || gotChildErr.Error() != wantChildErr.Error() {
			t.Errorf("%s: Child error %v, want %v", desc.typeName, gotChildErr, wantChildErr)
		}
		g, w := *gotFC, *wantFC
		g.Child, w.Child = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: field context\n got %+v\nwant %+v", desc.typeName, g, w)
		}
		if got.Value(otherKey{}) != "other" {
			t.Errorf("%s: another value is not the parent's", desc.typeName)
		}
		if got.Done() != base.Done() {
			t.Errorf("%s: Done is not the parent's", desc.typeName)
		}
	}
	got := withScalarFieldContext(object, field, scalarField{object: "Refund", typeName: "Int"})
	cancel()
	if !errors.Is(got.Err(), context.Canceled) {
		t.Errorf("a cancelled parent's scope answers %v", got.Err())
	}
}

// An error reported under a scalar field's scope carries the field's path,
// as under graphql.WithFieldContext.
func TestScalarFieldScopeErrorsCarryTheFieldsPath(t *testing.T) {
	oc := &graphql.OperationContext{}
	ctx := graphql.WithResponseContext(graphql.WithOperationContext(context.Background(), oc),
		graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	idx := 0
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "refunds"}}})
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Index: &idx})
	scope := withScalarFieldContext(ctx, graphql.CollectedField{Field: &ast.Field{Alias: "amount", Name: "amount"}},
		scalarField{object: "Refund", typeName: "Int"})
	graphql.AddErrorf(scope, "must not be null")
	errs := graphql.GetErrors(scope)
	if len(errs) != 1 || errs[0].Path.String() != "refunds[0].amount" {
		t.Fatalf("errors %v, want one at refunds[0].amount", errs)
	}
}
