package models

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Deleted is the answer of a DELETE that removes an object (spec doc 2
// §4.1, §4.2): {id, object, deleted: true}.
type Deleted struct {
	ID      uuid.UUID `json:"id"`
	Object  string    `json:"object"`
	Deleted bool      `json:"deleted"`
}

// Tombstone is what a deleted resource of kind K keeps retrievable (spec
// doc 2 §4.2): its id, object, mode and times, with deleted true. One type
// for every deletable resource: a resource declares that it has one by
// the tag wire:"tombstone" on its deletion time, and renders as it once
// that time is set (codecs_generated.go).
type Tombstone[K objectKind] struct {
	ID       uuid.UUID      `json:"id"`
	Object   Object[K]      `json:"object"`
	Deleted  bool           `json:"deleted"`
	Livemode bool           `json:"livemode"`
	Created  wire.Timestamp `json:"created"`
	Updated  wire.Timestamp `json:"updated"`
}

// DeletedCustomer is the answer of DELETE /v1/customers/{id}: the spec's
// {id, object, deleted: true}, with the members the real service's PHP
// SDK builds its customer from (name and email, the mode and times; its
// model refuses the answer without them). A GET of the deleted customer
// still answers the spec's subset alone (models.Customer).
type DeletedCustomer struct {
	Deleted
	Name     *string        `json:"name"`
	Email    string         `json:"email"`
	Livemode bool           `json:"livemode"`
	Created  wire.Timestamp `json:"created"`
	Updated  wire.Timestamp `json:"updated"`
}
