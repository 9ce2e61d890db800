package models

import (
	"encoding/json"
	"fmt"
)

// JSONColumn is a JSON array of objects in their wire shape, selected as
// one column of their parent's row (an aggregate of its children, so one
// statement reads the whole object). It decodes as it is scanned, so a
// column that cannot be decoded fails the read that selected it.
type JSONColumn[T any] []T

// Scan decodes the column (NULL: none).
func (c *JSONColumn[T]) Scan(src any) error {
	var raw []byte
	switch v := src.(type) {
	case nil:
		*c = nil
		return nil
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	default:
		return fmt.Errorf("models: JSON column of type %T", src)
	}
	return json.Unmarshal(raw, (*[]T)(c))
}
