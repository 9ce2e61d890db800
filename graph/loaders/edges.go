package loaders

import "reflect"

// edge is a field of a parent object that loads through a loader: LookAhead
// reads the keys of all the parents of one level in one batch.
type edge struct {
	loader string
	key    func(parent any, args map[string]any) (string, bool)
	// rows, for a page edge (AddPageEdge), is the nodes of a loaded page.
	rows func(page any) any
}

// AddEdge declares that the GraphQL field named field of a *P parent loads
// through k's loader by the key key gives ("" for none: the field is null
// without a read). It must mirror what the field's resolver loads: a key
// the resolver does not ask for is read for nothing, and a field whose
// edge is not declared is read one object at a time (still a constant of
// the query's shape, but one statement per object).
func AddEdge[P, V any](r *Registry, k Key[V], field string, key func(*P) string) {
	t := reflect.TypeFor[*P]()
	if r.edges[t] == nil {
		r.edges[t] = map[string]edge{}
	}
	r.edges[t][field] = edge{loader: k.name, key: func(parent any, _ map[string]any) (string, bool) {
		p, ok := parent.(*P)
		if !ok || p == nil {
			return "", false
		}
		id := key(p)
		return id, id != ""
	}}
}

// edgeOf finds the declared edge field of parents of type t.
func (r *Registry) edgeOf(t reflect.Type, field string) (edge, bool) {
	e, ok := r.edges[t][field]
	return e, ok
}
