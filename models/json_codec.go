package models

import (
	"fmt"

	gojson "github.com/goccy/go-json"
)

// The account's jsonb columns are decoded by github.com/goccy/go-json
// rather than encoding/json: measured against encoding/json,
// bytedance/sonic and mailru/easyjson on the columns of a page of accounts,
// it reads them fastest (docs/performance.md, "The account's JSON"). It
// reads the same struct tags, so a member is still declared once, on its
// field; account_columns_test.go holds its decoding to encoding/json's on
// random values.

// scanJSONColumn decodes a json or jsonb column into a new T and stores it
// in dst: unlike decoding into *dst, a scan never merges the column into
// what dst held. NULL is T's zero value, as Bun's JSON scanner leaves it.
func scanJSONColumn[T any](src any, dst *T) error {
	var raw []byte
	switch v := src.(type) {
	case nil:
		var zero T
		*dst = zero
		return nil
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	default:
		return fmt.Errorf("models: a JSON column read from %T", src)
	}
	var v T
	if err := gojson.Unmarshal(raw, &v); err != nil {
		return err
	}
	*dst = v
	return nil
}

// scanJSONObject is scanJSONColumn for a column that always holds an
// object (a plan the read builds): NULL is an error, not a zero value
// that would render as an object of zero members.
func scanJSONObject[T any](src any, dst *T) error {
	if src == nil {
		return fmt.Errorf("models: a JSON object column is NULL")
	}
	return scanJSONColumn(src, dst)
}
