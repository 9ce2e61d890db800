package generated

import (
	"io"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/require"
)

// A response written through a reused buffer is the marshaler's bytes,
// its own copy: a later response never changes an earlier one.
func TestMarshalResponseAnswersACopyOfWhatWasWritten(t *testing.T) {
	write := func(s string) graphql.Marshaler {
		return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, s) })
	}
	first := marshalResponse(write(`{"a":1}`))
	require.Equal(t, `{"a":1}`, string(first))
	second := marshalResponse(write(`{"b":` + strings.Repeat("2", 100) + `}`))
	require.Equal(t, `{"a":1}`, string(first))
	require.Equal(t, `{"b":`+strings.Repeat("2", 100)+`}`, string(second))
	require.Nil(t, marshalResponse(write("")), "empty data is nil, as gqlgen's buffer answered it")
	require.Equal(t, "null", string(marshalResponse(graphql.Null)))
}
