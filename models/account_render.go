package models

import "reflect"

// An account is rendered by generated code (json_generated.go, written by
// `go run ./models/generate` from Account's struct tags): a page of 100
// accounts renders 100 accounts, 300 capabilities and some 400 onboarding
// steps, and reflection over them, with the marshalers of their ids and
// timestamps, was the largest part of listing them (docs/performance.md,
// "The account's JSON").

// MarshalJSON renders the account as AppendJSON does.
func (a Account) MarshalJSON() ([]byte, error) { return a.AppendJSON(make([]byte, 0, 2048)) }

// AppendJSON appends the account to dst, rendered from its struct tags
// without the members its caller may not see: those whose field's
// `visible` tag leaves out the account's visibility.
func (a *Account) AppendJSON(dst []byte) ([]byte, error) {
	if a.visibility == VisibleAll {
		return appendAccountJSON(dst, a)
	}
	v := a.visibility
	if v < VisibleAll || v > VisiblePublic { // not one of ours: show the least
		v = VisiblePublic
	}
	all, err := appendAccountJSON(nil, a)
	if err != nil {
		return dst, err
	}
	seen, err := withoutMembers(all, accountHidden[v])
	return append(dst, seen...), err
}

// accountHidden lists, for each visibility, the members of Account it
// leaves out, read once from the fields' `visible` tags.
var accountHidden = hiddenMembers(reflect.TypeFor[Account]())
