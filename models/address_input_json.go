package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
)

// rePostalNumber is a postal code sent as a JSON number: digits only (no
// sign, fraction or exponent), as many as a postal code's text may hold.
var rePostalNumber = regexp.MustCompile(`^[0-9]{1,20}$`)

// UnmarshalJSON reads an address, its postal_code either a string or, as
// the real service's subscription sample sends it (`"postal_code":
// 17032`), a JSON number of digits, kept as the same digits in text
// (API-DECISIONS §9). Any other number (negative, fractional, in
// exponent form) is the usual type error on postal_code.
func (a *AddressInput) UnmarshalJSON(b []byte) error {
	type plain AddressInput
	var in struct {
		*plain
		PostalCode json.RawMessage `json:"postal_code"`
	}
	in.plain = (*plain)(a)
	if err := json.Unmarshal(b, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // the member's own name, not the embedding's
			te.Field = strings.TrimPrefix(te.Field, "plain.")
		}
		return err
	}
	raw := bytes.TrimSpace(in.PostalCode)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		a.PostalCode = nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		a.PostalCode = &s
	case rePostalNumber.Match(raw):
		s := string(raw)
		a.PostalCode = &s
	default:
		return &json.UnmarshalTypeError{Value: "number " + string(raw), Type: reflect.TypeOf(""), Field: "postal_code"}
	}
	return nil
}
