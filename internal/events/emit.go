// Package events records state changes. An event is written through the
// same transaction as the change it describes, so a committed change always
// has its event and a rolled-back one never does; delivery (webhooks) reads
// these rows afterwards.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// Emit writes an event of typ whose data.object is object rendered exactly
// as REST renders it.
func Emit(ctx context.Context, tx *store.Tenant, now time.Time, typ string, objectID uuid.UUID, object any, previous map[string]any) (*models.Event, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, fmt.Errorf("events: render %s: %w", typ, err)
	}
	e := &models.Event{ID: ids.New(now), Type: typ, ObjectID: &objectID,
		Data: models.EventData{Object: raw, PreviousAttributes: previous}, Created: models.At(now)}
	if _, err := tx.Insert(e).Exec(ctx); err != nil {
		return nil, fmt.Errorf("events: insert %s: %w", typ, err)
	}
	return e, nil
}

// PreviousAttributes returns, for every top-level member that differs
// between the REST renderings of before and after, its value before. It is
// nil when nothing changed.
func PreviousAttributes(before, after any) (map[string]any, error) {
	b, err := toMap(before)
	if err != nil {
		return nil, err
	}
	a, err := toMap(after)
	if err != nil {
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
	return prev, nil
}

func toMap(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}
