// Package events records state changes. An event is written through the
// same transaction as the change it describes, so a committed change always
// has its event and a rolled-back one never does; delivery (webhooks) reads
// these rows afterwards.
//
// An object is rendered once per state: the write path renders it before
// and after a change, and that one rendering serves as the event's
// data.object and as the input of PreviousAttributes.
package events

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Render renders object exactly as REST renders it.
func Render(object any) (json.RawMessage, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, fmt.Errorf("events: render %T: %w", object, err)
	}
	return raw, nil
}

// New builds an event of typ whose data.object is rendered, the object as
// REST renders it. It is written by Insert. The zero Type names no event:
// emitting it is a programming error and panics.
func New(now time.Time, typ Type, objectID uuid.UUID, rendered json.RawMessage, previous map[string]any) *Event {
	if typ.IsZero() {
		panic("events: an event without a declared type")
	}
	return &Event{ID: ids.New(now), Type: typ.String(), ObjectID: &objectID,
		Data: Data{Object: rendered, PreviousAttributes: previous}, Created: wire.At(now)}
}

// Insert writes events in one statement, in the order given (their ids
// increase in that order, so lists show them in the order they happened).
func Insert(ctx context.Context, tx *store.Tenant, evs []*Event) error {
	if len(evs) == 0 {
		return nil
	}
	if _, err := store.InsertModel(tx, evs).Exec(ctx); err != nil {
		return fmt.Errorf("events: insert: %w", err)
	}
	return nil
}

// PreviousAttributes returns, for every top-level member that differs
// between two renderings of one object, its value before: null for a
// member the object did not have (one left out while it has no value). It
// is nil when nothing changed. The `updated` stamp alone is not a change.
func PreviousAttributes(before, after json.RawMessage) (map[string]any, error) {
	if bytes.Equal(before, after) {
		return nil, nil
	}
	var b, a map[string]any
	if err := json.Unmarshal(before, &b); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(after, &a); err != nil {
		return nil, err
	}
	var prev map[string]any
	for k, bv := range b {
		if k == "updated" {
			continue
		}
		if av, ok := a[k]; !ok || !reflect.DeepEqual(av, bv) {
			if prev == nil {
				prev = map[string]any{}
			}
			prev[k] = bv
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && k != "updated" {
			if prev == nil {
				prev = map[string]any{}
			}
			prev[k] = nil
		}
	}
	return prev, nil
}
