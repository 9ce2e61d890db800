package models

import (
	"bytes"
	"encoding/json"
)

// OneOrMany is a list member that a request may also send as its one
// element, an object where an array is declared: the real service's PHP
// SDK sends an invoice's line_items so (InvoiceCreateRequest's lineItems
// is one InvoiceLineItems object). One object is read as the list of it;
// anything else is read as the list it declares, so a member of another
// type is the decoder's usual type error, naming the member (and, inside
// the one object, the element's member as it would inside an array).
type OneOrMany[T any] []T

// UnmarshalJSON reads an object as a list of one, anything else as a list.
func (o *OneOrMany[T]) UnmarshalJSON(b []byte) error {
	if one := bytes.TrimSpace(b); len(one) > 0 && one[0] == '{' {
		var element T
		if err := json.Unmarshal(one, &element); err != nil {
			return err
		}
		*o = OneOrMany[T]{element}
		return nil
	}
	return json.Unmarshal(b, (*[]T)(o))
}
