package models

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// UnmarshalGQL reads the GraphQL UsageNumber scalar: a decimal string or a
// number, checked by the input's Validate like REST's.
func (n *UsageNumber) UnmarshalGQL(v any) error {
	switch x := v.(type) {
	case string:
		*n = UsageNumber(x)
	case json.Number:
		*n = UsageNumber(x.String())
	case int, int64:
		*n = UsageNumber(fmt.Sprint(x))
	case float64:
		*n = UsageNumber(strconv.FormatFloat(x, 'f', -1, 64))
	default:
		return fmt.Errorf("%T is not a usage number", v)
	}
	return nil
}

// MarshalGQL writes the number as its decimal string (exact, unlike a
// GraphQL Float).
func (n UsageNumber) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(n.String())) }

// UnmarshalGQL reads the GraphQL UsageTime scalar: an RFC 3339 string or
// Unix seconds, as REST's timestamp; a malformed one is refused by the
// input's Validate with the other problems.
func (t *UsageTime) UnmarshalGQL(v any) error {
	switch x := v.(type) {
	case string:
		at, err := time.Parse(time.RFC3339, x)
		t.Time, t.bad = at.UTC().Truncate(time.Second), err != nil
	case json.Number:
		n, err := x.Int64()
		t.Time, t.bad = time.Unix(n, 0).UTC(), err != nil
	case int64:
		t.Time = time.Unix(x, 0).UTC()
	case int:
		t.Time = time.Unix(int64(x), 0).UTC()
	default:
		t.bad = true
	}
	return nil
}

// MarshalGQL writes the instant as RFC 3339 in UTC.
func (t UsageTime) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(t.Time.UTC().Format(time.RFC3339)))
}
