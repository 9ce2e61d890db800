package graph_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/models"
)

// closedSetsMarker delimits docs/graphql.md's list of the closed sets.
const (
	closedSetsBegin = "<!-- closed sets: written from the schema by TestGraphQLGuideListsEveryClosedSet -->"
	closedSetsEnd   = "<!-- end of closed sets -->"
)

// The GraphQL guide's list of closed sets is the schema's: every enum bound
// to a set declared with models.Enum, with its Go type and REST's wire
// values, one line each. The list is not kept by hand: when it differs,
// this test fails with the lines to paste between the markers.
func TestGraphQLGuideListsEveryClosedSet(t *testing.T) {
	t.Parallel()
	s := schemaWithDirectives(t)
	byName := map[string]reflect.Type{}
	for _, typ := range models.EnumTypes() {
		byName[typ.PkgPath()+"."+typ.Name()] = typ
	}
	var lines []string
	for _, def := range s.Types {
		if def.Kind != ast.Enum {
			continue
		}
		d := def.Directives.ForName("goModel")
		if d == nil {
			continue
		}
		var goTypes []string
		if m := d.Arguments.ForName("model"); m != nil {
			goTypes = append(goTypes, m.Value.Raw)
		}
		if ms := d.Arguments.ForName("models"); ms != nil {
			for _, c := range ms.Value.Children {
				goTypes = append(goTypes, c.Value.Raw)
			}
		}
		for _, name := range goTypes {
			typ, ok := byName[name]
			if !ok {
				continue
			}
			wire, _ := models.EnumValues(typ)
			lines = append(lines, "- `"+def.Name+"` ("+typ.String()+"): `"+strings.Join(wire, "`, `")+"`")
			break
		}
	}
	slices.Sort(lines)
	want := strings.Join(lines, "\n")

	doc, err := os.ReadFile("../docs/graphql.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(doc), closedSetsBegin+"\n")
	require.True(t, ok, "docs/graphql.md has the marker %q", closedSetsBegin)
	got, _, ok := strings.Cut(after, closedSetsEnd)
	require.True(t, ok, "docs/graphql.md has the marker %q", closedSetsEnd)
	got = strings.TrimSuffix(got, "\n")
	require.Equal(t, want, got, "docs/graphql.md's closed sets differ from the schema's; the list between the markers is:\n%s", want)
}
