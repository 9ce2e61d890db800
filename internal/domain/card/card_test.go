package card

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLuhnAndBrand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		number string
		valid  bool
		brand  string
	}{
		{"4242424242424242", true, Visa},
		{"4242424242424241", false, Visa},
		{"5555555555554444", true, Mastercard},
		{"2223003122003222", true, Mastercard},
		{"378282246310005", true, Amex},
		{"6011111111111117", true, Discover},
		{"6500000000000002", true, Discover},
		{"3530111333300000", true, Unknown},
		{"4242", false, Visa},
		{"", false, Unknown},
		{"42424242424242a2", false, Visa},
	} {
		require.Equal(t, tc.valid, ValidNumber(tc.number), tc.number)
		require.Equal(t, tc.brand, Brand(tc.number), tc.number)
	}
	require.Equal(t, "4242424242424242", Normalize(" 4242-4242 4242 4242 "))
}

func TestEveryTestCardIsAValidNumber(t *testing.T) {
	t.Parallel()
	for _, c := range TestCards {
		require.True(t, ValidNumber(c.Number), c.Number)
		got, ok := LookupTestCard(c.Number)
		require.True(t, ok)
		require.Equal(t, c, got)
	}
	_, ok := LookupTestCard("4012888888881881")
	require.False(t, ok)
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		month, year int
		ok          bool
		expired     bool
	}{
		{11, 26, true, false},
		{10, 2026, true, true},
		{12, 2026, true, false},
		{1, 27, true, false},
		{13, 27, false, false},
		{0, 27, false, false},
		{5, 1999, false, false},
		{5, 25, true, true},
	} {
		e, ok := ParseExpiry(tc.month, tc.year)
		require.Equal(t, tc.ok, ok, "%d/%d", tc.month, tc.year)
		if ok {
			require.Equal(t, tc.expired, e.Expired(now), "%d/%d", tc.month, tc.year)
		}
	}
	e, _ := ParseExpiry(1, 2050)
	require.True(t, e.TooFar(now))
}

func TestCVC(t *testing.T) {
	t.Parallel()
	require.True(t, ValidCVC("123", Visa))
	require.False(t, ValidCVC("1234", Visa))
	require.True(t, ValidCVC("1234", Amex))
	require.False(t, ValidCVC("123", Amex))
	require.False(t, ValidCVC("12a", Visa))
}

// FuzzCardNumber: the validators never panic, accept only 12-19 digits
// passing Luhn, and a number that passes keeps passing when written with
// spaces.
func FuzzCardNumber(f *testing.F) {
	for _, c := range TestCards {
		f.Add(c.Number, "123")
	}
	f.Add("", "")
	f.Add("4242 4242 4242 4242", "12\x00")
	f.Fuzz(func(t *testing.T, number, cvc string) {
		digits := Normalize(number)
		valid := ValidNumber(digits)
		brand := Brand(digits)
		_ = ValidCVC(cvc, brand)
		if valid {
			if len(digits) < 12 || len(digits) > 19 {
				t.Fatalf("%q accepted with %d digits", digits, len(digits))
			}
			for _, c := range digits {
				if c < '0' || c > '9' {
					t.Fatalf("%q accepted with a non-digit", digits)
				}
			}
			spaced := digits[:4] + " " + digits[4:]
			if !ValidNumber(Normalize(spaced)) {
				t.Fatalf("%q refused once spaced", digits)
			}
		}
	})
}
