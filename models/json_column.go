package models

// JSONColumn is a JSON array of objects in their wire shape, selected as
// one column of their parent's row (an aggregate of its children, so one
// statement reads the whole object). It decodes as it is scanned, so a
// column that cannot be decoded fails the read that selected it.
type JSONColumn[T any] []T

// Scan decodes the column (NULL: none) as every JSON column is decoded
// (scanJSONColumn).
func (c *JSONColumn[T]) Scan(src any) error {
	return scanJSONColumn(src, (*[]T)(c))
}
