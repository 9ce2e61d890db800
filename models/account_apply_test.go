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
	}
}
