package models

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Decimal is a decimal number that travels as a string and is accepted as
// a JSON number or string ("12.5" or 12.5): percentages and money in major
// units. It never goes through a float.
type Decimal string

var reDecimal = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]+)?$`)

// UnmarshalJSON accepts a number or a string; a malformed one is kept and
// refused by Validate, so that every field problem is reported at once.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return &json.UnmarshalTypeError{Value: string(b), Type: reflectDecimal}
		}
		s = n.String()
	}
	*d = Decimal(strings.TrimSpace(s))
	return nil
}

// Hundredths is the value times 100 when it has at most two decimals.
func (d Decimal) Hundredths() (int64, bool) {
	s := string(d)
	if !reDecimal.MatchString(s) {
		return 0, false
	}
	whole, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		return 0, false
	}
	frac += strings.Repeat("0", 2-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	return n, err == nil
}

// DecimalFromHundredths renders n/100 without trailing zeros ("12.5",
// "100"), or with exactly two decimals when money is true ("5.00").
func DecimalFromHundredths(n int64, money bool) Decimal {
	s := fmt.Sprintf("%d.%02d", n/100, n%100)
	if !money {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return Decimal(s)
}

// UnmarshalGQL reads the GraphQL Decimal scalar (a string or a number).
func (d *Decimal) UnmarshalGQL(v any) error {
	switch x := v.(type) {
	case string:
		*d = Decimal(strings.TrimSpace(x))
	case json.Number:
		*d = Decimal(x.String())
	case int, int64, float64:
		*d = Decimal(fmt.Sprint(x))
	default:
		return fmt.Errorf("%T is not a decimal", v)
	}
	return nil
}

// MarshalGQL writes the decimal as a string.
func (d Decimal) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(d))) }

var reflectDecimal = reflect.TypeOf(Decimal(""))
