package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// CodeDepthLimit is the extensions.code of a query over the depth limit.
const CodeDepthLimit = "DEPTH_LIMIT_EXCEEDED"

func init() {
	// Like a validation error: answered 422, nothing runs.
	errcode.RegisterErrorType(CodeDepthLimit, errcode.KindProtocol)
}

// DepthLimit refuses an operation whose selections nest deeper than Limit
// fields (a root field is depth 1). Fragments count where they are spread;
// introspection fields (__schema, __type) are not counted, so tools can
// always read the schema.
type DepthLimit struct {
	schemaFree
	Limit int
}

var _ operationCheck = DepthLimit{}

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// MutateOperationContext implements graphql.OperationContextMutator.
func (d DepthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if d.Limit <= 0 || oc.Operation == nil {
		return nil
	}
	depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}, d.Limit+1)
	if depth <= d.Limit {
		return nil
	}
	err := gqlerror.Errorf("operation is nested more than %d fields deep, which exceeds the depth limit", d.Limit)
	errcode.Set(err, CodeDepthLimit)
	return err
}

// selectionDepth is the depth of set, stopping once it passes stop (which
// also bounds the work on a hostile query). visiting guards against
// fragment cycles (which validation already refuses).
func selectionDepth(set ast.SelectionSet, frags ast.FragmentDefinitionList, visiting map[string]bool, stop int) int {
	if stop <= 0 {
		return 0
	}
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			d = 1 + selectionDepth(s.SelectionSet, frags, visiting, stop-1)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, frags, visiting, stop)
		case *ast.FragmentSpread:
			if visiting[s.Name] {
				continue
			}
			f := frags.ForName(s.Name)
			if f == nil {
				continue
			}
			visiting[s.Name] = true
			d = selectionDepth(f.SelectionSet, frags, visiting, stop)
			delete(visiting, s.Name)
		}
		deepest = max(deepest, d)
		if deepest >= stop {
			return deepest
		}
	}
	return deepest
}
