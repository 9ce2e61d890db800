package generated

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// gqlgen's executor writes a list of strings ([String!]!: a capability's
// currently due requirements, three or so of each of the 150 capabilities
// of a page of 50 accounts) as a graphql.Array of graphql.MarshalString
// marshalers: the array and a marshaler allocated for every string. `make
// generate` (graph/generate) has the executor ask marshalStringList
// instead, which writes the same bytes from the slice itself.

// stringList writes as the graphql.Array of graphql.MarshalString of each
// string (an empty or nil list as []).
type stringList []string

var (
	openBracket  = []byte{'['}
	closeBracket = []byte{']'}
)

// MarshalGQL implements graphql.Marshaler.
func (l stringList) MarshalGQL(w io.Writer) {
	_, _ = w.Write(openBracket)
	for i, s := range l {
		if i != 0 {
			_, _ = w.Write(comma)
		}
		graphql.MarshalString(s).MarshalGQL(w)
	}
	_, _ = w.Write(closeBracket)
}

// marshalStringList is what the executor's marshalNString2ᚕstringᚄ
// answers for v: a string is never graphql.Null, so neither is the list.
func marshalStringList(v []string) graphql.Marshaler { return stringList(v) }
