package graph_test

import (
	"os"
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
	var lines []string
	listed := map[*ast.Definition]bool{}
	for _, b := range enumBindings(s) {
		if listed[b.def] { // an enum bound to several sets is listed by its first
			continue
		}
		listed[b.def] = true
		wire, _ := models.EnumValues(b.typ)
		lines = append(lines, "- `"+b.def.Name+"` ("+b.typ.String()+"): `"+strings.Join(wire, "`, `")+"`")
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
