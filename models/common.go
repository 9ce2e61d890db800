// Package models holds the Bun models that are also the REST wire shapes
// (json tags are the documented contract), their enums, and the operation
// inputs with their validation. gqlgen binds the GraphQL schema to these
// same types.
package models

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Tenant carries the columns every tenant row has (see wire.Tenant).
type Tenant = wire.Tenant

// Timestamp travels as integer Unix seconds (see wire.Timestamp).
type Timestamp = wire.Timestamp

// ISOTime travels as an ISO 8601 string (see wire.ISOTime).
type ISOTime = wire.ISOTime

// At wraps t as a Timestamp.
func At(t time.Time) Timestamp { return wire.At(t) }

// objectKind names the `object` member of a resource.
type objectKind interface{ objectName() string }

// Object is a zero-size field that always marshals as its resource's object
// name, so no code path can forget to set it.
type Object[K objectKind] struct{}

// MarshalJSON writes the object name.
func (o Object[K]) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil), nil }

// AppendJSON appends the object name, as MarshalJSON writes it.
func (Object[K]) AppendJSON(b []byte) []byte {
	var k K
	b = append(b, '"')
	b = append(b, k.objectName()...) // names are plain lowercase words
	return append(b, '"')
}

// UnmarshalJSON accepts anything: the name is implied by the type.
func (*Object[K]) UnmarshalJSON([]byte) error { return nil }

// Metadata is the merchant's key-value pairs on an object.
type Metadata map[string]string
