package seed

import (
	"encoding/json"
	"strings"
)

// body decodes a request body into an operation's input, as the REST layer
// does: the data set reads as the JSON an integration would send. The
// bodies are constants of this package, so one that does not decode is a
// mistake in it, found by its tests.
func body[T any](raw string, args ...string) *T {
	raw = strings.NewReplacer(args...).Replace(raw)
	in := new(T)
	if err := json.Unmarshal([]byte(raw), in); err != nil {
		panic("seed: body of " + raw + ": " + err.Error())
	}
	return in
}
