package loaders

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// AddPageEdge declares a connection field of a *P parent whose loader
// reads, for many parents at once, the one page each parent's field asks
// for: its key is the parent's id (parent) with the field's arguments
// (PageKey), so parents asking the same page of the same filter share one
// batch, and an alias asking another page or filter has a batch of its
// own. rows gives the nodes of a loaded page, which LookAhead walks as the
// level below (AddEdge's connections are walked as a parent's newest rows
// cut to first; a page edge's value is the page itself, after a cursor
// too).
func AddPageEdge[P, V any](r *Registry, k Key[V], field string, parent func(*P) string, rows func(V) any) {
	t := reflect.TypeFor[*P]()
	if r.edges[t] == nil {
		r.edges[t] = map[string]edge{}
	}
	r.edges[t][field] = edge{loader: k.name,
		key: func(p any, args map[string]any) (string, bool) {
			pp, ok := p.(*P)
			if !ok || pp == nil {
				return "", false
			}
			return PageKey(parent(pp), args)
		},
		rows: func(page any) any {
			v, ok := page.(V)
			if !ok {
				return nil
			}
			return rows(v)
		}}
}

// pageKeySep separates a page key's parent id from its arguments.
const pageKeySep = "\x00"

// PageKey is the loader key of a parent's page: the parent's id and the
// field's arguments as the query gives them (variables substituted,
// defaults applied), in a canonical JSON form (json sorts map keys). The
// look-ahead and the field's resolver compute it from the same arguments,
// so they meet in the loader's cache.
func PageKey(parentID string, args map[string]any) (string, bool) {
	if parentID == "" {
		return "", false
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", false
	}
	return parentID + pageKeySep + string(b), true
}

// FieldPageKey is PageKey for the field being resolved in ctx.
func FieldPageKey(ctx context.Context, parentID string) (string, bool) {
	fc, oc := graphql.GetFieldContext(ctx), graphql.GetOperationContext(ctx)
	if fc == nil || oc == nil {
		return "", false
	}
	return PageKey(parentID, fc.Field.ArgumentMap(oc.Variables))
}

// SplitPageKey is a page key's parent id and arguments (JSON).
func SplitPageKey(key string) (parentID string, args []byte) {
	id, a, _ := strings.Cut(key, pageKeySep)
	return id, []byte(a)
}
