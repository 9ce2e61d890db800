package generated

import (
	"bytes"
	"io"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// gqlgen's executor writes an enum value as graphql.MarshalString of its
// name, a marshaler allocated for every value of every object (a page of
// 50 accounts shows 300 capability names and statuses). An enum has a
// handful of names, so `make generate` (graph/generate) has the executor
// ask marshalEnumName instead, which keeps one marshaler per name with
// the bytes graphql.MarshalString writes for it.

// enumNames holds a *writtenName per enum name: a set bounded by the
// schema's enums (a value without a name is marshalled as "", one more).
var enumNames sync.Map // string → *writtenName

// writtenName is what graphql.MarshalString writes for a name.
type writtenName struct{ written []byte }

// MarshalGQL implements graphql.Marshaler.
func (n *writtenName) MarshalGQL(w io.Writer) { _, _ = w.Write(n.written) }

// marshalEnumName is graphql.MarshalString(name) for an enum value's name.
func marshalEnumName(name string) graphql.Marshaler {
	if n, ok := enumNames.Load(name); ok {
		return n.(*writtenName)
	}
	var b bytes.Buffer
	graphql.MarshalString(name).MarshalGQL(&b)
	n, _ := enumNames.LoadOrStore(name, &writtenName{written: b.Bytes()})
	return n.(*writtenName)
}
