package generated

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
)

// A list of strings writes what the executor's graphql.Array of
// graphql.MarshalString wrote, byte for byte (quotes, backslashes, control
// characters, non-ASCII and invalid UTF-8 included), and costs one
// allocation whatever its length.
func TestStringListsWriteAsTheExecutorsArray(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 38))
	alphabet := []string{"a", "Z", "0", "\"", "\\", "\n", "\t", "\r", "\x00", "\x1f", "\x7f", "é", "日", "\u2028", "<", "&", "\xff", " "}
	lists := [][]string{nil, {}, {""}, {"individual.name", "individual.email", "individual.phone"}}
	for range 500 {
		list := make([]string, r.IntN(5))
		for i := range list {
			var b bytes.Buffer
			for range r.IntN(12) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			list[i] = b.String()
		}
		lists = append(lists, list)
	}
	ec := &executionContext{}
	for _, list := range lists {
		var want, got bytes.Buffer
		ec.marshalNString2ᚕstringᚄ(context.Background(), nil, list).MarshalGQL(&want)
		marshalStringList(list).MarshalGQL(&got)
		if got.String() != want.String() {
			t.Fatalf("%q: wrote %s, want %s", list, got.String(), want.String())
		}
	}
	var buf bytes.Buffer
	long := []string{"individual.name", "individual.email", "individual.phone", "individual.address", "a\"b"}
	if n := testing.AllocsPerRun(100, func() {
		buf.Reset()
		marshalStringList(long).MarshalGQL(&buf)
	}); n > 1 {
		t.Errorf("a list of %d strings costs %v allocations, want 1", len(long), n)
	}
}
