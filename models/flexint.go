package models

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// FlexInt is an integer the real service's clients send either as a JSON
// number or as a numeric string (card expiry: `exp_month: "04"`).
type FlexInt int

// UnmarshalJSON accepts 4 and "04".
func (n *FlexInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeOf(*n)}
	}
	*n = FlexInt(v)
	return nil
}

// UnmarshalGQL reads a GraphQL Int.
func (n *FlexInt) UnmarshalGQL(v any) error {
	switch x := v.(type) {
	case int:
		*n = FlexInt(x)
	case int64:
		*n = FlexInt(x)
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			return err
		}
		*n = FlexInt(i)
	default:
		return fmt.Errorf("%T is not an integer", v)
	}
	return nil
}

// MarshalGQL writes the integer.
func (n FlexInt) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Itoa(int(n))) }
