package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The schema files bind their types to Go with gqlgen's directives, which
// act at generation: introspection lists only the directives a document
// may use.
func TestIntrospectionListsNoBindingDirectives(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.sk, `{ __schema { directives { name } } }`, nil)
	var names []string
	for _, d := range list(obj(g.Data["__schema"])["directives"]) {
		names = append(names, obj(d)["name"].(string))
	}
	require.Equal(t, []string{"defer", "deprecated", "include", "oneOf", "skip", "specifiedBy"}, names)
}
