package models

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// UsageNumber is an amount of usage: a metering event's value, a meter's
// aggregated usage, credits used. It is exact (a PostgreSQL numeric, never
// a float): accepted as a JSON number or a decimal string, stored as
// numeric, and written back as a JSON number (MarshalJSON) or, where the
// spec gives a decimal string, as UsageNumber.String.
type UsageNumber string

// Usage precision: values at most MaxAmount (the one bound on money,
// which usage values share with amounts) with at most 12 decimals. A value
// is kept as the decimal text it arrived as, never converted to a binary
// float: JSON numbers are read as text (Decimal), stored as numeric and
// summed by PostgreSQL exactly, so 0.1 is one tenth, not 0.1000000000000000055.
const usageMaxDecimals = 12

// UnmarshalJSON accepts a number or a string; Check refuses a malformed
// one, so that every field problem is reported at once.
func (n *UsageNumber) UnmarshalJSON(b []byte) error {
	var d Decimal
	if err := d.UnmarshalJSON(b); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflectDecimal}
	}
	*n = UsageNumber(d)
	return nil
}

// MarshalJSON writes the number as a JSON number ("0" when empty).
func (n UsageNumber) MarshalJSON() ([]byte, error) {
	if n == "" {
		return []byte("0"), nil
	}
	return []byte(n.Canonical()), nil
}

// String is the decimal string of the number.
func (n UsageNumber) String() string { return n.Canonical() }

// Canonical is the number without trailing zeros ("1.5", "20").
func (n UsageNumber) Canonical() string {
	s := string(n)
	if s == "" {
		return "0"
	}
	if strings.ContainsAny(s, "eE") {
		if r, ok := parseUsage(s); ok {
			s = r.FloatString(usageMaxDecimals)
		}
	}
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Rat is the number as an exact fraction (zero when malformed).
func (n UsageNumber) Rat() *big.Rat {
	r, ok := parseUsage(string(n))
	if !ok {
		return new(big.Rat)
	}
	return r
}

// reUsage is the syntax of a usage number: a decimal with an optional
// exponent of at most two digits, checked before parsing so that an input
// such as 1e999999999 never makes math/big build its power of ten.
var reUsage = regexp.MustCompile(`^-?[0-9]{1,40}(\.[0-9]{1,40})?([eE][+-]?[0-9]{1,2})?$`)

// parseUsage parses s when it has the syntax of a usage number.
func parseUsage(s string) (*big.Rat, bool) {
	if !reUsage.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// UsageFromRat renders r (non-negative, at most 12 decimals once rounded)
// as a UsageNumber.
func UsageFromRat(r *big.Rat) UsageNumber {
	return UsageNumber(r.FloatString(usageMaxDecimals)).normal()
}

func (n UsageNumber) normal() UsageNumber { return UsageNumber(n.Canonical()) }

// checkUsageNumber refuses a value that is not a non-negative decimal at
// most MaxAmount with at most 12 decimals (more decimals are refused, not
// rounded), and normalizes a valid one (an exponent is written out).
func checkUsageNumber(f *apierr.Fields, path string, n *UsageNumber, required bool) {
	if n == nil {
		if required {
			f.Add(path, "is required")
		}
		return
	}
	r, ok := parseUsage(string(*n))
	if !ok {
		f.Add(path, "must be a number")
		return
	}
	limit := new(big.Rat).SetInt64(MaxAmount)
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(usageMaxDecimals), nil)))
	switch {
	case r.Sign() < 0:
		f.Add(path, "must not be negative")
	case r.Cmp(limit) > 0:
		f.Add(path, ProblemAmount)
	case !scaled.IsInt():
		f.Add(path, fmt.Sprintf("must have at most %d decimals", usageMaxDecimals))
	default:
		*n = UsageFromRat(r)
	}
}
