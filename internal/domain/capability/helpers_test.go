package capability

import (
	"reflect"
	"testing"
)

// equal fails the test when got and want differ. The package's tests use the
// standard library only so that the module's go.sum does not need entries
// for test-only dependencies.
func equal[T any](t *testing.T, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got: %#v\nwant: %#v", got, want)
	}
}

func names(ns ...Name) []Name {
	if ns == nil {
		return []Name{}
	}
	return ns
}

func keys(ks ...string) []string {
	if ks == nil {
		return []string{}
	}
	return ks
}
