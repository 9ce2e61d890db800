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

// Open makes s a new session of id in state: the one create of both
// sessions (resolvers/money's SDKSessions) fills either row through it.
func (s *ChargeSession) Open(id uuid.UUID, state SDKSessionState) {
	s.ID, s.SDKSessionState = id, state
}

// Open makes s a new session of id in state.
func (s *SonarSession) Open(id uuid.UUID, state SDKSessionState) {
	s.ID, s.SDKSessionState = id, state
}

// SessionState is the state of either session, which the one update of
// both changes.
func (s *SDKSessionState) SessionState() *SDKSessionState { return s }

// CreateChargeSessionInput is POST /v1/charge_sessions.
type CreateChargeSessionInput struct{ SDKSessionCreate }

// UpdateChargeSessionInput is PATCH /v1/charge_sessions/{id}.
type UpdateChargeSessionInput struct{ SDKSessionUpdate }

// CreateSonarSessionInput is POST /v1/sonar_sessions.
type CreateSonarSessionInput struct{ SDKSessionCreate }

// UpdateSonarSessionInput is PATCH /v1/sonar_sessions/{id}.
type UpdateSonarSessionInput struct{ SDKSessionUpdate }

// SDKSessionCreate is what a create of either SDK session sends: one
// declaration and one validation for both, each session's input embedding
// it under its own name.
type SDKSessionCreate struct {
	ChargeIntentID *string       `json:"charge_intent_id"`
	VisitorID      *string       `json:"visitor_id"`
	Metadata       MetadataInput `json:"metadata"`
}

// SDKSessionUpdate is what an update of either SDK session sends.
type SDKSessionUpdate struct {
	Status    *SessionStatus `json:"status"`
	VisitorID *string        `json:"visitor_id"`
	Metadata  MetadataInput  `json:"metadata"`
}

// Session is the shared part of a session's create input, so that the one
// create of both sessions reaches it through either input.
func (in *SDKSessionCreate) Session() *SDKSessionCreate { return in }

// Session is the shared part of a session's update input.
func (in *SDKSessionUpdate) Session() *SDKSessionUpdate { return in }

// maxVisitorIDLength bounds a fingerprinting visitor id.
const maxVisitorIDLength = 255

// Validate checks a create, every field at once.
func (in *SDKSessionCreate) Validate() error {
	var f apierr.Fields
	parseOptionalID(&f, "charge_intent_id", in.ChargeIntentID)
	checkText(&f, "visitor_id", in.VisitorID, maxVisitorIDLength, false)
	checkMetadata(&f, "metadata", in.Metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(nil, in.Metadata))
	return f.Err()
}

// Validate checks an update, every field at once. It accepts a closing
// status only: a session is opened by its creation.
func (in *SDKSessionUpdate) Validate() error {
	var f apierr.Fields
	checkText(&f, "visitor_id", in.VisitorID, maxVisitorIDLength, false)
	if in.Status != nil && *in.Status != SessionCompleted && *in.Status != SessionCanceled {
		f.Add("status", "must be one of: completed, canceled")
	}
	checkMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}
