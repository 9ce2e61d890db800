package generated

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// objectFieldSet is the field set every object of a response is written
// from: `make generate` (graph/generate) substitutes newObjectFieldSet for
// graphql.NewFieldSet where the executor builds an object's own fields,
// and objectDeferredSet for the empty set it builds beside it for @defer.
//
// The executor fills and dispatches it through graphql.FieldSet's own
// members (Values, Invalids, Concurrently, Dispatch); only writing it
// differs. gqlgen's FieldSet.MarshalGQL walks the fields through an
// iterator that allocates the iterator, a copy of every field and a map of
// the aliases already written, for every object: some 2,400 allocations of
// the 10,000 of a page of 50 accounts with their capabilities, 250
// objects. Here the fields are walked in place and a repeated alias (two
// fields of one alias on unrelated types, which gqlgen's CollectFields
// keeps apart) is found by looking back, as gqlgen's map finds it; the
// object's @defer set and, for objects of up to inlineValues fields, its
// values live in the same allocation as the set.
type objectFieldSet struct {
	graphql.FieldSet
	fields   []graphql.CollectedField
	deferred graphql.FieldSet
	inline   [inlineValues]graphql.Marshaler
}

// inlineValues is how many field values an object keeps inside its set:
// most objects of a page select a handful of fields.
const inlineValues = 8

// lookBackFields is how many fields an object may have before the aliases
// already written are kept in a map, as gqlgen keeps them, rather than
// found by comparing with every earlier field.
const lookBackFields = 32

// newObjectFieldSet is graphql.NewFieldSet for an object's fields.
func newObjectFieldSet(fields []graphql.CollectedField) *objectFieldSet {
	s := &objectFieldSet{fields: fields}
	if len(fields) <= inlineValues {
		s.Values = s.inline[:len(fields):len(fields)]
	} else {
		s.Values = make([]graphql.Marshaler, len(fields))
	}
	return s
}

// objectDeferredSet is the object's empty field set for the fields it
// defers (graphql.NewFieldSet(nil) in gqlgen's executor).
func (s *objectFieldSet) objectDeferredSet() *graphql.FieldSet { return &s.deferred }

var (
	openBrace  = []byte{'{'}
	closeBrace = []byte{'}'}
	comma      = []byte{','}
	aliasOpen  = []byte{'"'}
	aliasClose = []byte{'"', ':'}
)

// MarshalGQL writes the object as graphql.FieldSet.MarshalGQL writes it:
// each field's alias and value in order, a repeated alias once, with the
// value of its first field. An alias is a GraphQL name ([_A-Za-z][_0-9A-Za-z]*),
// which JSON writes as it is.
func (s *objectFieldSet) MarshalGQL(w io.Writer) {
	w.Write(openBrace)
	var written map[string]struct{}
	if len(s.fields) > lookBackFields {
		written = make(map[string]struct{}, len(s.fields))
	}
	first := true
	for i := range s.fields {
		alias := s.fields[i].Alias
		if written != nil {
			if _, seen := written[alias]; seen {
				continue
			}
			written[alias] = struct{}{}
		} else if s.aliasBefore(i) {
			continue
		}
		if !first {
			w.Write(comma)
		}
		first = false
		w.Write(aliasOpen)
		_, _ = io.WriteString(w, alias)
		w.Write(aliasClose)
		s.Values[i].MarshalGQL(w)
	}
	w.Write(closeBrace)
}

// aliasBefore reports whether a field before i has field i's alias.
func (s *objectFieldSet) aliasBefore(i int) bool {
	alias := s.fields[i].Alias
	for j := range i {
		if s.fields[j].Alias == alias {
			return true
		}
	}
	return false
}
