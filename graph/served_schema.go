package graph

import "github.com/vektah/gqlparser/v2/ast"

// bindingDirectives are gqlgen's directives the schema files use to bind
// their types to Go (graph/schema/directives.graphqls).
var bindingDirectives = map[string]bool{"goModel": true, "goField": true, "goEnum": true}

// servedSchema is the schema the handler serves: the generated one without
// the declarations of the binding directives. They act when the executor
// is generated and mean nothing to a client, so introspection lists only
// the directives a document may use, as when the bindings lived in
// gqlgen.yml. Everything else is the generated schema's, shared.
func servedSchema(generated *ast.Schema) *ast.Schema {
	s := *generated
	s.Directives = make(map[string]*ast.DirectiveDefinition, len(generated.Directives))
	for name, d := range generated.Directives {
		if !bindingDirectives[name] {
			s.Directives[name] = d
		}
	}
	return &s
}
