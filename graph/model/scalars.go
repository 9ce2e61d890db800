// Package model holds the GraphQL-only types gqlgen generates
// (models_gen.go: connections, payloads, enums the Bun models do not have)
// and the marshalers that bind the schema's custom scalars to the types of
// package models. A scalar's @goModel (graph/schema/base.graphqls; ID and
// Int in gqlgen.yml) names these functions by their suffix: the model
// "graph/model.Timestamp" means MarshalTimestamp and UnmarshalTimestamp.
package model

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// Node is the Go side of the GraphQL Node interface: Account, Capability
// and Event (the Bun models of package models, which know nothing of
// GraphQL). The executor switches on the concrete type.
type Node interface{}

// MarshalUUID writes an id as its canonical string, or null for uuid.Nil.
func MarshalUUID(id uuid.UUID) graphql.Marshaler {
	if id == uuid.Nil {
		return graphql.Null
	}
	return quotedUUID(id)
}

// UnmarshalUUID reads a canonical UUID string.
func UnmarshalUUID(v any) (uuid.UUID, error) {
	s, ok := v.(string)
	if !ok {
		return uuid.Nil, fmt.Errorf("%T is not an id", v)
	}
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, fmt.Errorf("%q is not an id", s)
	}
	return id, nil
}

// MarshalDateTime writes t as RFC 3339 in UTC with second precision (the
// form REST uses for ISO 8601 fields), or null for the zero time.
func MarshalDateTime(t time.Time) graphql.Marshaler {
	if t.IsZero() {
		return graphql.Null
	}
	if q := quotedTime(t.UTC(), time.RFC3339); q != nil {
		return q
	}
	return graphql.MarshalString(t.UTC().Format(time.RFC3339))
}

// UnmarshalDateTime reads an RFC 3339 string.
func UnmarshalDateTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("DateTime must be an RFC 3339 string, not %T", v)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("DateTime must be an RFC 3339 string: %q", s)
	}
	return t.UTC(), nil
}

// MarshalTimestamp renders a wire.Timestamp as a DateTime.
func MarshalTimestamp(t wire.Timestamp) graphql.Marshaler { return MarshalDateTime(t.Time) }

// UnmarshalTimestamp reads a DateTime into a wire.Timestamp.
func UnmarshalTimestamp(v any) (wire.Timestamp, error) {
	t, err := UnmarshalDateTime(v)
	return wire.Timestamp{Time: t}, err
}

// MarshalISOTime renders a wire.ISOTime as a DateTime.
func MarshalISOTime(t wire.ISOTime) graphql.Marshaler { return MarshalDateTime(t.Time) }

// UnmarshalISOTime reads a DateTime into a wire.ISOTime.
func UnmarshalISOTime(v any) (wire.ISOTime, error) {
	t, err := UnmarshalDateTime(v)
	return wire.ISOTime{Time: t}, err
}

// MarshalMetadata writes metadata as a JSON object of strings (null for a
// nil map: a field the caller may not see).
func MarshalMetadata(m models.Metadata) graphql.Marshaler {
	if m == nil {
		return graphql.Null
	}
	return jsonMarshaler(map[string]string(m))
}

// UnmarshalMetadata reads a JSON object of strings.
func UnmarshalMetadata(v any) (models.Metadata, error) {
	in, err := UnmarshalMetadataInput(v)
	if err != nil {
		return nil, err
	}
	out := models.Metadata{}
	for k, s := range in {
		if s != nil {
			out[k] = *s
		}
	}
	return out, nil
}

// MarshalMetadataInput writes metadata as sent (null values included).
func MarshalMetadataInput(m models.MetadataInput) graphql.Marshaler {
	if m == nil {
		return graphql.Null
	}
	return jsonMarshaler(map[string]*string(m))
}

// UnmarshalMetadataInput reads a JSON object whose values are strings or
// null (null removes the key on update). Anything else is the same
// validation error REST gives, so the error presenter renders it as
// validation_errors on `metadata`.
func UnmarshalMetadataInput(v any) (models.MetadataInput, error) {
	if v == nil {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.FieldError("metadata", "must be an object of strings")
	}
	out := make(models.MetadataInput, len(obj))
	var fields apierr.Fields
	for k, val := range obj {
		switch s := val.(type) {
		case nil:
			out[k] = nil
		case string:
			out[k] = &s
		default:
			fields.Add("metadata."+k, "must be a string")
		}
	}
	if err := fields.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// MarshalEventData writes an event's data exactly as REST renders it:
// {object, previous_attributes?}, with the object's REST (snake_case) shape.
func MarshalEventData(d events.Data) graphql.Marshaler {
	// Data read from the database keeps its JSON (events.Data.Scan):
	// written as is, without encoding/json's second pass over it.
	b, err := d.MarshalJSON()
	if err != nil {
		return jsonMarshaler(d)
	}
	return graphql.WriterFunc(func(w io.Writer) { _, _ = w.Write(b) })
}

// UnmarshalEventData exists for symmetry; JSON is an output-only scalar in
// the schema.
func UnmarshalEventData(v any) (events.Data, error) {
	var d events.Data
	b, err := json.Marshal(v)
	if err != nil {
		return d, err
	}
	err = json.Unmarshal(b, &d)
	return d, err
}

// jsonMarshaler renders v with encoding/json.
func jsonMarshaler(v any) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		b, err := json.Marshal(v)
		if err != nil {
			// Every value marshalled here is plain data; this cannot happen,
			// but never emit invalid JSON.
			_, _ = io.WriteString(w, strconv.Quote("unrenderable value"))
			return
		}
		_, _ = w.Write(b)
	})
}

// MarshalCurrencyCode writes a currency code in upper case: GraphQL spells
// every currency one way (REST keeps each member's casing).
func MarshalCurrencyCode(code string) graphql.Marshaler {
	if q := quotedUpperASCII(code); q != nil {
		return q
	}
	return graphql.MarshalString(strings.ToUpper(code))
}

// UnmarshalCurrencyCode reads a currency code as given, in any case: the
// operation layer checks it and stores it as each resource does.
func UnmarshalCurrencyCode(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("CurrencyCode must be a string, not %T", v)
	}
	return s, nil
}
