package models

import "github.com/google/uuid"

// Deleted is the answer of a DELETE that removes an object (spec doc 2
// §4.1, §4.2): {id, object, deleted: true}.
type Deleted struct {
	ID      uuid.UUID `json:"id"`
	Object  string    `json:"object"`
	Deleted bool      `json:"deleted"`
}
