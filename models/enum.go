package models

import (
	"fmt"
	"reflect"
	"sync"
)

// Every status and closed set the wire names is a Go string type with its
// constants, and its whole set is declared once with Enum beside them:
//
//	var TransferStatuses = Enum(TransferPending, TransferSucceeded, ...)
//
// Those declarations are written by `make generate` into
// enums_generated.go from enums.txt, where each set is stated once: its
// type, its constants with their wire values, and its set's name (a set
// whose values are another package's constants is declared by hand
// beside its type).
//
// The declaration is what a list filter checks a value against (a filter
// field of that type tagged `filter:"status,enum"`, resolvers/op), and
// GraphQL names the same set as an enum of SCREAMING_CASE values mapped
// to these constants (graph/schema; graph's enum tests hold the two
// together), so REST and GraphQL refuse the same values.

var enumSets sync.Map // reflect.Type -> []string

// Enum declares values, in the order the documentation lists them, as the
// whole closed set of T and returns them. A type is declared once; plain
// string has no set.
func Enum[T ~string](values ...T) []T {
	t := reflect.TypeFor[T]()
	if t == reflect.TypeFor[string]() {
		panic("models: Enum of plain string: declare a named type")
	}
	wire := make([]string, len(values))
	for i, v := range values {
		wire[i] = string(v)
	}
	if _, loaded := enumSets.LoadOrStore(t, wire); loaded {
		panic(fmt.Sprintf("models: enum %s declared twice", t))
	}
	return values
}

// EnumValues is the closed set declared for t (a type Enum was called
// with), as wire strings.
func EnumValues(t reflect.Type) ([]string, bool) {
	v, ok := enumSets.Load(t)
	if !ok {
		return nil, false
	}
	return v.([]string), true
}

// EnumTypes lists every declared closed set's type (tests hold GraphQL's
// enums to them).
func EnumTypes() []reflect.Type {
	var out []reflect.Type
	enumSets.Range(func(k, _ any) bool {
		out = append(out, k.(reflect.Type))
		return true
	})
	return out
}
