package loaders

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/graph-gophers/dataloader/v7"
	"github.com/vektah/gqlparser/v2/ast"
)

// LookAhead returns the field middleware that makes batching
// deterministic. When a resolver field has its value (a connection, a
// list, an object), LookAhead reads the query's selection below it and,
// level by level, loads every declared loader edge (AddEdge) for all the
// objects of that level in one batch per loader, before the executor
// resolves the objects one by one. The fields' resolvers
// are unchanged: they load through the same loaders and find their values
// (or errors) in the cache.
//
// Why not a timer: gqlgen's executor resolves each element of a list, and
// each resolver field of an object, in a goroutine of its own (this one
// no longer does below the query root: graph/generate), so a loader that
// waits a few milliseconds for keys gathers only those whose goroutines
// ran in time; on a loaded machine one batch became two. Looking ahead
// depends only on the query and the data, never on scheduling, and a
// level costs its statement and no wait.
//
// Between edges LookAhead follows plain fields (a connection's edges and
// node, an object's struct fields) by their Go struct fields, matched by
// name as gqlgen binds them. It stops at a field it cannot follow
// without running its resolver (a resolver that is not a declared edge);
// when that resolver runs, LookAhead looks ahead from it in turn. It is
// only a shortcut: a key it misses is read when its field asks, alone.
//
// Mutations' results are walked after the write (the middleware must be
// outside the one that clears the loaders after each mutation);
// subscriptions are left alone.
func LookAhead(schema *ast.Schema) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		res, err := next(ctx)
		if err != nil || res == nil || ctx.Err() != nil {
			return res, err
		}
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || !fc.IsResolver || len(fc.Field.Selections) == 0 || fc.Field.Definition == nil {
			return res, err
		}
		s := from(ctx)
		oc := graphql.GetOperationContext(ctx)
		if s == nil || oc == nil || oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
			return res, err
		}
		w := walker{s: s, oc: oc, schema: schema}
		w.run(ctx, []level{{typeName: fc.Field.Definition.Type.Name(), sel: fc.Field.Selections,
			values: objects(reflect.ValueOf(res), nil)}})
		return res, err
	}
}

// Root is a root field whose value is known before the root fields run
// (a lookup by id that Prefetch read).
type Root struct {
	Field graphql.CollectedField
	Value any
}

// LookAheadRoots looks ahead from every root in one walk, so that the
// edges of N aliased lookups load in the batches one lookup's do (each
// root field looking ahead from itself alone would read its own).
func LookAheadRoots(ctx context.Context, schema *ast.Schema, roots []Root) {
	s := from(ctx)
	oc := graphql.GetOperationContext(ctx)
	if s == nil || oc == nil {
		return
	}
	var todo []level
	for _, r := range roots {
		if r.Field.Definition != nil && len(r.Field.Selections) > 0 {
			todo = append(todo, level{typeName: r.Field.Definition.Type.Name(), sel: r.Field.Selections,
				values: objects(reflect.ValueOf(r.Value), nil)})
		}
	}
	w := walker{s: s, oc: oc, schema: schema}
	w.run(ctx, todo)
}

// maxRounds bounds the levels one walk loads; the depth limit (12) keeps
// real queries far below it.
const maxRounds = 64

// level is a selection to apply to objects of one GraphQL type (an
// interface's objects are sorted by concrete type when walked).
type level struct {
	typeName string
	sel      ast.SelectionSet
	values   []reflect.Value // non-nil pointers to structs
}

// pending is an edge field met in a round, with its parents' keys.
type pending struct {
	field  graphql.CollectedField
	loader string
	keys   []string
	rows   func(page any) any // a page edge's nodes (AddPageEdge)
}

type walker struct {
	s      *set
	oc     *graphql.OperationContext
	schema *ast.Schema
}

// run loads the edges below todo, one round per level of edges: a round
// follows every plain field it can, gathers the keys of every edge it
// meets, reads them in one batch per loader, and makes the edges' values
// the next round's objects.
func (w *walker) run(ctx context.Context, todo []level) {
	defer func() { _ = recover() }() // a shortcut only: the fields load what it missed
	for round := 0; len(todo) > 0 && round < maxRounds; round++ {
		var edges []pending
		var order []string
		want := map[string][]string{}
		for len(todo) > 0 {
			lv := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, g := range w.byType(lv) {
				for _, f := range graphql.CollectFields(w.oc, lv.sel, g.satisfies) {
					if len(f.Selections) == 0 || f.Definition == nil {
						continue
					}
					if e, ok := w.s.reg.edgeOf(g.goType, f.Name); ok {
						p := pending{field: f, loader: e.loader, rows: e.rows}
						var args map[string]any
						if e.rows != nil {
							args = f.ArgumentMap(w.oc.Variables)
						}
						for _, v := range g.values {
							if k, ok := e.key(v.Interface(), args); ok {
								p.keys = append(p.keys, k)
							}
						}
						if len(p.keys) > 0 {
							if _, seen := want[e.loader]; !seen {
								order = append(order, e.loader)
							}
							want[e.loader] = append(want[e.loader], p.keys...)
							edges = append(edges, p)
						}
						continue
					}
					var children []reflect.Value
					for _, v := range g.values {
						children = objects(plainField(v, f.Name), children)
					}
					if len(children) > 0 {
						todo = append(todo, level{typeName: f.Definition.Type.Name(), sel: f.Selections, values: children})
					}
				}
			}
		}
		got := map[string]map[string]dataloader.Result[any]{}
		for _, name := range order {
			res, ok := w.s.prefetch(ctx, name, want[name])
			if !ok {
				continue
			}
			byKey := make(map[string]dataloader.Result[any], len(res))
			for i, r := range res {
				byKey[want[name][i]] = r
			}
			got[name] = byKey
		}
		for _, p := range edges {
			page := w.connectionPage(p.field, p.rows != nil)
			var children []reflect.Value
			for _, k := range p.keys {
				if r, ok := got[p.loader][k]; ok && r.Error == nil && r.Data != nil {
					if p.rows != nil {
						children = objects(reflect.ValueOf(p.rows(r.Data)), children)
						continue
					}
					children = objects(page.of(reflect.ValueOf(r.Data)), children)
				}
			}
			switch {
			case len(children) == 0:
			case page.ok:
				for _, sel := range page.nodes {
					todo = append(todo, level{typeName: page.typeName, sel: sel, values: children})
				}
			default:
				todo = append(todo, level{typeName: p.field.Definition.Type.Name(), sel: p.field.Selections, values: children})
			}
		}
	}
}

// connectionPage is what an edge field whose type is a Relay connection
// (edges { node }) shows of the rows its loader read for a parent (a
// parent's newest rows, from which the connection's resolver serves its
// first page): the first `first` of them, walked as the nodes with the
// selections below node. Without it the walk would stop at the
// connection, and each parent's connection would look ahead on its own
// when its resolver ran: one batch per parent instead of one per level.
type connectionPage struct {
	ok       bool // the field is a connection asked from its first page
	typeName string
	nodes    []ast.SelectionSet
	first    int // -1: every row
}

// connectionPage tells whether f is a connection read from its first page
// (a page after a cursor is not the loader's rows: its resolver lists it
// and looks ahead from there), or, paged, a page edge's connection, whose
// loader read the very page asked (AddPageEdge).
func (w *walker) connectionPage(f graphql.CollectedField, paged bool) (c connectionPage) {
	conn := w.schema.Types[f.Definition.Type.Name()]
	if conn == nil || conn.Kind != ast.Object {
		return c
	}
	edges := conn.Fields.ForName("edges")
	if edges == nil {
		return c
	}
	edgeType := w.schema.Types[edges.Type.Name()]
	if edgeType == nil || edgeType.Fields.ForName("node") == nil {
		return c
	}
	args := f.ArgumentMap(w.oc.Variables)
	if args["after"] != nil && !paged {
		return c
	}
	c.first = -1
	if n, ok := intArg(args["first"]); ok && !paged {
		c.first = n
	}
	for _, e := range graphql.CollectFields(w.oc, f.Selections, []string{conn.Name}) {
		if e.Name != "edges" {
			continue
		}
		for _, n := range graphql.CollectFields(w.oc, e.Selections, []string{edgeType.Name}) {
			if n.Name == "node" && len(n.Selections) > 0 {
				c.nodes = append(c.nodes, n.Selections)
			}
		}
	}
	c.ok, c.typeName = true, edgeType.Fields.ForName("node").Type.Name()
	return c
}

// of is the part of a parent's rows v the page shows.
func (c connectionPage) of(v reflect.Value) reflect.Value {
	if !c.ok || c.first < 0 || v.Kind() != reflect.Slice || v.Len() <= c.first {
		return v
	}
	return v.Slice(0, c.first)
}

// intArg reads an Int argument, a literal or a variable.
func intArg(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

// typed is a level's objects of one concrete type.
type typed struct {
	goType    reflect.Type
	satisfies []string
	values    []reflect.Value
}

// byType sorts a level's objects by Go type and names each group's
// GraphQL object type: the level's own type, or, for an interface or a
// union, the possible type named as the Go type is (gqlgen binds models by
// name). Objects of a type it cannot name are not walked.
func (w *walker) byType(lv level) []typed {
	def := w.schema.Types[lv.typeName]
	if def == nil {
		return nil
	}
	var out []typed
	index := map[reflect.Type]int{}
	for _, v := range lv.values {
		i, ok := index[v.Type()]
		if !ok {
			obj := def
			if def.IsAbstractType() {
				obj = nil
				for _, p := range w.schema.GetPossibleTypes(def) {
					if p.Name == v.Type().Elem().Name() {
						obj = p
					}
				}
			}
			i = -1
			if obj != nil {
				i = len(out)
				out = append(out, typed{goType: v.Type(), satisfies: append([]string{obj.Name}, obj.Interfaces...)})
			}
			index[v.Type()] = i
		}
		if i >= 0 {
			out[i].values = append(out[i].values, v)
		}
	}
	return out
}

// objects appends the objects v holds (an object, a pointer to one, or a
// list of them, nested) to out as pointers to structs.
func objects(v reflect.Value, out []reflect.Value) []reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			return objects(v.Elem(), out)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		if v.Elem().Kind() == reflect.Struct {
			return append(out, v)
		}
		return objects(v.Elem(), out)
	case reflect.Struct:
		if v.CanAddr() {
			return append(out, v.Addr())
		}
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		return append(out, p)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out = objects(v.Index(i), out)
		}
	}
	return out
}

// fieldIndex caches, per struct type and GraphQL field name, the index of
// the Go field gqlgen binds it to (nil when there is none).
var fieldIndex sync.Map // fieldKey -> []int

type fieldKey struct {
	t    reflect.Type
	name string
}

// plainField is the value of the struct field of *p that the GraphQL
// field name binds to (case-insensitive, as gqlgen matches), or the zero
// Value.
func plainField(p reflect.Value, name string) reflect.Value {
	t := p.Type().Elem()
	k := fieldKey{t, name}
	idx, ok := fieldIndex.Load(k)
	if !ok {
		var found []int
		if sf, ok := t.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, name) }); ok && sf.IsExported() {
			found = sf.Index
		}
		idx, _ = fieldIndex.LoadOrStore(k, found)
	}
	if idx.([]int) == nil {
		return reflect.Value{}
	}
	f, err := p.Elem().FieldByIndexErr(idx.([]int))
	if err != nil {
		return reflect.Value{}
	}
	return f
}
