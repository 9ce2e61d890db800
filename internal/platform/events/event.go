package events

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Event records a state change (API-DECISIONS §5). It is written in the same
// transaction as the change it records.
type Event struct {
	bun.BaseModel `bun:"table:events,alias:e"`
	wire.Tenant

	ID       uuid.UUID      `bun:"id,pk,type:uuid" json:"id"`
	Object   eventObject    `bun:"-" json:"object"`
	Type     string         `bun:"type" json:"type"`
	ObjectID *uuid.UUID     `bun:"object_id,type:uuid" json:"-"`
	Data     Data           `bun:"data,type:jsonb" json:"data"`
	Created  wire.Timestamp `bun:"created" json:"created"`
}

// Data is the resource as REST returned it at the time of the event, plus
// the attributes a change replaced.
type Data struct {
	Object             json.RawMessage `json:"object"`
	PreviousAttributes map[string]any  `json:"previous_attributes,omitempty"`
	// rendered is the data's JSON as read from the database, Object a
	// slice of it (Scan, data_json.go); nil for data built here.
	rendered []byte
}

// eventObject always renders as "event".
type eventObject struct{}

func (eventObject) MarshalJSON() ([]byte, error) { return []byte(`"event"`), nil }

func (*eventObject) UnmarshalJSON([]byte) error { return nil }
