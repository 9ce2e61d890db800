package models

import "reflect"

// MarshalJSON renders the account from its struct tags (marshalJSON),
// without the members its caller may not see: those whose field's
// `visible` tag leaves out the account's visibility.
func (a Account) MarshalJSON() ([]byte, error) {
	type plain Account
	b, err := marshalJSON(plain(a))
	if err != nil || a.visibility == VisibleAll {
		return b, err
	}
	v := a.visibility
	if v < VisibleAll || v > VisiblePublic { // not one of ours: show the least
		v = VisiblePublic
	}
	return withoutMembers(b, accountHidden[v])
}

// accountHidden lists, for each visibility, the members of Account it
// leaves out, read once from the fields' `visible` tags.
var accountHidden = hiddenMembers(reflect.TypeFor[Account]())
