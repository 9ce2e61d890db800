package models

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON reads a create request whose line_items is one line item
// object rather than an array of them, as one line: the real service's PHP
// SDK sends its InvoiceLineItems so (InvoiceCreateRequest's lineItems is
// one object). Anything else is read as it comes, so a line_items of
// another type is still the decoder's parameter_invalid on line_items.
func (in *CreateInvoiceInput) UnmarshalJSON(b []byte) error {
	type plain CreateInvoiceInput
	var probe struct {
		LineItems json.RawMessage `json:"line_items"`
	}
	if json.Unmarshal(b, &probe) == nil {
		if one := bytes.TrimSpace(probe.LineItems); len(one) > 0 && one[0] == '{' {
			var body map[string]json.RawMessage
			if err := json.Unmarshal(b, &body); err != nil {
				return err
			}
			body["line_items"] = append(append([]byte{'['}, one...), ']')
			var err error
			if b, err = json.Marshal(body); err != nil {
				return err
			}
		}
	}
	return json.Unmarshal(b, (*plain)(in))
}
