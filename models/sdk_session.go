package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// SDKSessionState is what both SDK sessions hold beyond their id and object
// name, in the order they travel: one declaration, so that the create and
// update the two share are written once against it.
type SDKSessionState struct {
	Status         SessionStatus `bun:"status" json:"status"`
	ChargeIntentID *uuid.UUID    `bun:"charge_intent_id,type:uuid" json:"charge_intent_id,omitempty"`
	// VisitorID is the device fingerprinting visitor the SDK names (its
	// create and update send it; its Ruby client reads it back), null
	// until one is sent.
	VisitorID *string        `bun:"visitor_id" json:"visitor_id"`
	Metadata  Metadata       `bun:"metadata,type:jsonb" json:"metadata"`
	Created   wire.Timestamp `bun:"created" json:"created"`
	Updated   wire.Timestamp `bun:"updated" json:"updated"`
}

type chargeSessionKind struct{}

func (chargeSessionKind) objectName() string { return "charge_session" }

// ChargeSession is the SDK's session around collecting a payment, for a
// charge intent or none (frame-node's ChargeSession).
type ChargeSession struct {
	bun.BaseModel `bun:"table:charge_sessions,alias:cs"`
	Tenant

	ID     uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object Object[chargeSessionKind] `bun:"-" json:"object"`
	SDKSessionState
}

type sonarSessionKind struct{}

func (sonarSessionKind) objectName() string { return "sonar_session" }

// SonarSession is the SDK's device and location session (frame-node's
// SonarSession), named by a transfer's or charge intent's
// sonar_session_id.
type SonarSession struct {
	bun.BaseModel `bun:"table:sonar_sessions,alias:ss"`
	Tenant

	ID     uuid.UUID                `bun:"id,pk,type:uuid" json:"id"`
	Object Object[sonarSessionKind] `bun:"-" json:"object"`
	SDKSessionState
}

// CreateChargeSessionInput is POST /v1/charge_sessions.
type CreateChargeSessionInput struct {
	ChargeIntentID *string       `json:"charge_intent_id"`
	VisitorID      *string       `json:"visitor_id"`
	Metadata       MetadataInput `json:"metadata"`
}

// Validate checks the input, every field at once.
func (in *CreateChargeSessionInput) Validate() error {
	return validateSessionCreate(in.ChargeIntentID, in.VisitorID, in.Metadata)
}

// UpdateChargeSessionInput is PATCH /v1/charge_sessions/{id}.
type UpdateChargeSessionInput struct {
	Status    *SessionStatus `json:"status"`
	VisitorID *string        `json:"visitor_id"`
	Metadata  MetadataInput  `json:"metadata"`
}

// Validate checks the input, every field at once.
func (in *UpdateChargeSessionInput) Validate() error {
	return validateSessionUpdate(in.Status, in.VisitorID, in.Metadata)
}

// CreateSonarSessionInput is POST /v1/sonar_sessions.
type CreateSonarSessionInput struct {
	ChargeIntentID *string       `json:"charge_intent_id"`
	VisitorID      *string       `json:"visitor_id"`
	Metadata       MetadataInput `json:"metadata"`
}

// Validate checks the input, every field at once.
func (in *CreateSonarSessionInput) Validate() error {
	return validateSessionCreate(in.ChargeIntentID, in.VisitorID, in.Metadata)
}

// UpdateSonarSessionInput is PATCH /v1/sonar_sessions/{id}.
type UpdateSonarSessionInput struct {
	Status    *SessionStatus `json:"status"`
	VisitorID *string        `json:"visitor_id"`
	Metadata  MetadataInput  `json:"metadata"`
}

// Validate checks the input, every field at once.
func (in *UpdateSonarSessionInput) Validate() error {
	return validateSessionUpdate(in.Status, in.VisitorID, in.Metadata)
}

// maxVisitorIDLength bounds a fingerprinting visitor id.
const maxVisitorIDLength = 255

func validateSessionCreate(chargeIntentID, visitorID *string, metadata MetadataInput) error {
	var f apierr.Fields
	parseOptionalID(&f, "charge_intent_id", chargeIntentID)
	checkText(&f, "visitor_id", visitorID, maxVisitorIDLength, false)
	checkMetadata(&f, "metadata", metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(nil, metadata))
	return f.Err()
}

// validateSessionUpdate accepts a closing status only: a session is
// opened by its creation.
func validateSessionUpdate(status *SessionStatus, visitorID *string, metadata MetadataInput) error {
	var f apierr.Fields
	checkText(&f, "visitor_id", visitorID, maxVisitorIDLength, false)
	if status != nil && *status != SessionCompleted && *status != SessionCanceled {
		f.Add("status", "must be one of: completed, canceled")
	}
	checkMetadata(&f, "metadata", metadata)
	return f.Err()
}
