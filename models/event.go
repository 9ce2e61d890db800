package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

type eventKind struct{}

func (eventKind) objectName() string { return "event" }

// Event records a state change (API-DECISIONS §5). It is written in the same
// transaction as the change it records.
type Event struct {
	bun.BaseModel `bun:"table:events,alias:e"`
	Tenant

	ID       uuid.UUID         `bun:"id,pk,type:uuid" json:"id"`
	Object   Object[eventKind] `bun:"-" json:"object"`
	Type     string            `bun:"type" json:"type"`
	ObjectID *uuid.UUID        `bun:"object_id,type:uuid" json:"-"`
	Data     EventData         `bun:"data,type:jsonb" json:"data"`
	Created  Timestamp         `bun:"created" json:"created"`
}

// EventData is the resource as REST returned it at the time of the event,
// plus the attributes a change replaced.
type EventData struct {
	Object             json.RawMessage `json:"object"`
	PreviousAttributes map[string]any  `json:"previous_attributes,omitempty"`
}
