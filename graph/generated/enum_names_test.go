package generated

import (
	"bytes"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

// An enum name's marshaler writes what graphql.MarshalString writes, and
// is made once per name.
func TestEnumNamesWriteAsMarshalString(t *testing.T) {
	for _, name := range []string{"SUCCEEDED", "", "requires_action", "A\"B", "é\n"} {
		var want, got bytes.Buffer
		graphql.MarshalString(name).MarshalGQL(&want)
		marshalEnumName(name).MarshalGQL(&got)
		if got.String() != want.String() {
			t.Errorf("%q: wrote %s, want %s", name, got.String(), want.String())
		}
		if marshalEnumName(name) != marshalEnumName(name) {
			t.Errorf("%q: a marshaler made again", name)
		}
	}
	if n := testing.AllocsPerRun(100, func() { marshalEnumName("SUCCEEDED") }); n != 0 {
		t.Errorf("a known name costs %v allocations", n)
	}
}
