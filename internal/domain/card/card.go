// Package card holds the pure rules of card numbers: the Luhn checksum,
// brand detection, expiry and CVC checks, and the sandbox's test cards
// (API-DECISIONS §6) with what the sandbox processor answers for each.
package card

import (
	"strings"
	"time"
)

// Normalize strips the spaces and dashes people type in card numbers.
func Normalize(number string) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(number))
}

// Luhn reports whether digits (only digits) pass the Luhn checksum.
func Luhn(digits string) bool {
	if len(digits) == 0 {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		c := digits[i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// Brand names.
const (
	Visa       = "visa"
	Mastercard = "mastercard"
	Amex       = "amex"
	Discover   = "discover"
	Unknown    = "unknown"
)

// Brand detects the card network from the number's prefix.
func Brand(digits string) string {
	prefix := func(n int) int {
		if len(digits) < n {
			return -1
		}
		v := 0
		for _, c := range digits[:n] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	switch p2, p3, p4 := prefix(2), prefix(3), prefix(4); {
	case strings.HasPrefix(digits, "4"):
		return Visa
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return Mastercard
	case p2 == 34 || p2 == 37:
		return Amex
	case p4 == 6011, p2 == 65, p3 >= 644 && p3 <= 649:
		return Discover
	}
	return Unknown
}

// ValidNumber reports whether digits can be a card number: 12 to 19
// digits passing Luhn.
func ValidNumber(digits string) bool {
	return len(digits) >= 12 && len(digits) <= 19 && Luhn(digits)
}

// ValidCVC reports whether cvc fits the brand: four digits for Amex,
// three for the others.
func ValidCVC(cvc, brand string) bool {
	want := 3
	if brand == Amex {
		want = 4
	}
	if len(cvc) != want {
		return false
	}
	for _, c := range cvc {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Expiry is a card's expiry, in full.
type Expiry struct {
	Month, Year int
}

// ParseExpiry reads an expiry given as month and year, the year either in
// full or as its last two digits (of this century). ok is false for a
// month outside 1-12 or a year that is neither.
func ParseExpiry(month, year int) (Expiry, bool) {
	switch {
	case month < 1 || month > 12:
		return Expiry{}, false
	case year >= 0 && year <= 99:
		year += 2000
	case year < 2000 || year > 2199:
		return Expiry{}, false
	}
	return Expiry{Month: month, Year: year}, true
}

// Expired reports whether the card no longer works at now: a card is good
// through the last day of its expiry month.
func (e Expiry) Expired(now time.Time) bool {
	y, m, _ := now.UTC().Date()
	return e.Year < y || (e.Year == y && e.Month < int(m))
}

// TooFar reports an expiry more than 20 years ahead.
func (e Expiry) TooFar(now time.Time) bool {
	return e.Year > now.UTC().Year()+20
}
