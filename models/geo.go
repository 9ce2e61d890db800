package models

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// GeoComplianceStatus is an account's geo compliance (spec doc 1 §2.9).
type GeoComplianceStatus struct {
	SonarSessionID *string      `json:"sonar_session_id"`
	DecisionID     *uuid.UUID   `json:"decision_id"`
	EvaluatedAt    *ISOTime     `json:"evaluated_at"`
	Status         GeoStatus    `json:"status"`
	Reason         *GeoReason   `json:"reason,omitempty"`
	Geofence       *GeofenceRef `json:"geofence,omitempty"`
}

// GeoStatus is an account's geo compliance state.
type GeoStatus string

// GeoStatuses is the closed set of geo compliance statuses.
var GeoStatuses = Enum[GeoStatus](verification.GeoClear, verification.GeoBlocked, verification.GeoUnknown)

// GeofenceRef names the geofence that blocked an account.
type GeofenceRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type geofenceKind struct{}

func (geofenceKind) objectName() string { return "geofence" }

// Geofence is a restricted area (spec doc 1 §2.9). The platform's are
// locked: merchants cannot change them.
type Geofence struct {
	ID           string               `json:"id"`
	Object       Object[geofenceKind] `json:"object"`
	Name         string               `json:"name"`
	Description  string               `json:"description"`
	GeofenceType string               `json:"geofence_type"`
	Active       bool                 `json:"active"`
	// Status is active as a word (`active` or `inactive`), the member the
	// Ruby SDK reads.
	Status        GeofenceStatus           `json:"status"`
	Metadata      Metadata                 `json:"metadata"`
	Locked        bool                     `json:"locked"`
	GeofenceRules []verification.Territory `json:"geofence_rules"`
	Livemode      bool                     `json:"livemode"`
	Created       wire.Timestamp           `json:"created"`
	Updated       wire.Timestamp           `json:"updated"`
}
