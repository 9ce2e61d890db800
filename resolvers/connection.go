package resolvers

import (
	"strings"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// keyset turns a connection's arguments into list parameters.
func keyset(first *int, after *string) op.ListParams {
	return op.ListParams{Keyset: true, First: first, After: after}
}

// connect maps a keyset page onto a connection's edges and page info.
func connect[T, E any](page op.Page[T], edge func(cursor string, node T) E) ([]E, *model.PageInfo) {
	edges := make([]E, len(page.Items))
	for i, item := range page.Items {
		edges[i] = edge(page.Cursors[i], item)
	}
	info := &model.PageInfo{HasNextPage: page.HasMore, HasPreviousPage: page.HasPrevious}
	if n := len(page.Cursors); n > 0 {
		info.StartCursor, info.EndCursor = &page.Cursors[0], &page.Cursors[n-1]
	}
	return edges, info
}

// strPtr turns an optional GraphQL enum into the optional wire string a
// filter takes.
func strPtr[S ~string](v *S) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// enumArg turns an enum argument as a query spells it (a page edge's
// arguments are read as written: SUCCEEDED) into the wire value of the
// closed set T (succeeded): GraphQL's names are the wire values in upper
// case.
func enumArg[T ~string](name *string) *T {
	if name == nil {
		return nil
	}
	v := T(strings.ToLower(*name))
	return &v
}

// names turns GraphQL capability names into the wire names the operation
// layer takes.
func names(in []capability.Name) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, n := range in {
		out[i] = string(n)
	}
	return out
}
