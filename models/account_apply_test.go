package models

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPhonesAreStoredInOneCanonicalForm(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		in               PhoneInput
		number, cc, e164 string
	}{
		{PhoneInput{Number: s("2001001695"), CountryCode: s("1")}, "2001001695", "1", "+12001001695"},
		{PhoneInput{Number: s("(200) 100-1695"), CountryCode: s("+1")}, "2001001695", "1", "+12001001695"},
		{PhoneInput{Number: s("+1 200 100 1695")}, "2001001695", "1", "+12001001695"},
		{PhoneInput{Number: s("2001001695"), CountryCode: s("us")}, "2001001695", "1", "+12001001695"},
		{PhoneInput{Number: s("12001001695"), CountryCode: s("1")}, "2001001695", "1", "+12001001695"},
		{PhoneInput{Number: s("226 773 8525"), CountryCode: s("1")}, "2267738525", "1", "+12267738525"},
		{PhoneInput{Number: s("020 7946 0958"), CountryCode: s("GB")}, "2079460958", "44", "+442079460958"},
	} {
		p := tc.in.normalized()
		require.Equal(t, tc.number, *p.Number, "%+v", tc.in)
		require.Equal(t, tc.cc, *p.CountryCode, "%+v", tc.in)
		require.Equal(t, tc.e164, p.E164())
		require.Equal(t, tc.e164, *p.Normalized, "the E.164 form is kept with the number")
	}
}

// The E.164 form kept with a phone answers E164 without parsing, and one
// stored without it (before migration 00034, or not a phone number) is
// parsed as before.
func TestE164ReadsTheStoredForm(t *testing.T) {
	s := func(v string) *string { return &v }
	require.Equal(t, "+15550000000", (&Phone{Number: s("2001001695"), CountryCode: s("1"), Normalized: s("+15550000000")}).E164(),
		"the stored form is what is read")
	require.Equal(t, "+12001001695", (&Phone{Number: s("2001001695"), CountryCode: s("1")}).E164())
	require.Equal(t, "", (&Phone{Number: s("12"), CountryCode: s("1")}).E164())
	require.Equal(t, "", (*Phone)(nil).E164())
}

// The stored E.164 form is the server's own: the wire shows the number and
// its code only.
func TestStoredE164IsNotRendered(t *testing.T) {
	s := func(v string) *string { return &v }
	phone := (&PhoneInput{Number: s("+1 200 100 1695")}).normalized()
	a := Account{Profile: Profile{Individual: &IndividualProfile{Phone: phone}, Business: &BusinessProfile{Phone: phone}}}
	body := string(a.AppendJSON(nil))
	require.Contains(t, body, `"phone":{"number":"2001001695","country_code":"1"}`)
	require.NotContains(t, body, "e164")
}
