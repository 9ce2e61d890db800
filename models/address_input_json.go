package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// rePostalNumber is a postal code sent as a JSON number: digits only (no
// sign, fraction or exponent), as many as a postal code's text may hold.
var rePostalNumber = regexp.MustCompile(`^[0-9]{1,20}$`)

// postalCodeMember is the JSON name of AddressInput.PostalCode, read from
// its tag: the member is declared once, on the struct.
var postalCodeMember = func() string {
	f, _ := reflect.TypeFor[AddressInput]().FieldByName("PostalCode")
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}()

// UnmarshalJSON reads an address, its postal_code either a string or, as
// the real service's subscription sample sends it (`"postal_code":
// 17032`), a JSON number of digits, kept as the same digits in text
// (API-DECISIONS §9). Any other number (negative, fractional, in
// exponent form) is the usual type error on postal_code. The members are
// the struct's own: a number is rewritten as its text, then the address
// decodes as declared.
func (a *AddressInput) UnmarshalJSON(b []byte) error {
	type plain AddressInput
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil || members == nil {
		return json.Unmarshal(b, (*plain)(a)) // the decoder's own error for a non-object
	}
	postal := postalCodeMember
	if raw := bytes.TrimSpace(members[postal]); len(raw) > 0 && raw[0] != '"' && !bytes.Equal(raw, []byte("null")) {
		if !rePostalNumber.Match(raw) {
			return &json.UnmarshalTypeError{Value: "number " + string(raw), Type: reflect.TypeOf(""), Field: postal}
		}
		members[postal] = json.RawMessage(strconv.Quote(string(raw)))
		rewritten, err := json.Marshal(members)
		if err != nil {
			return err
		}
		b = rewritten
	}
	return json.Unmarshal(b, (*plain)(a))
}
