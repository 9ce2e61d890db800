package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type testClockKind struct{}

func (testClockKind) objectName() string { return "test_clock" }

// TestClock is a sandbox clock (API-DECISIONS §7): the time of the
// accounts and customers bound to it and of everything they own. It only
// moves forward, by an advance that applies every effect that falls due on
// the way, in time order; an advance with more to apply than one request's
// budget goes on in the background (docs/billing.md, test clocks).
type TestClock struct {
	bun.BaseModel `bun:"table:test_clocks,alias:tc"`
	Tenant

	ID     uuid.UUID             `bun:"id,pk,type:uuid" json:"id"`
	Object Object[testClockKind] `bun:"-" json:"object"`
	Name   *string               `bun:"name" json:"name"`
	// FrozenTime is the clock's time on the wire: where it stands when
	// ready, where its advance is taking it while advancing. Derived
	// (Derive) from AdvancedTo and AdvancingTo.
	FrozenTime wire.Timestamp `bun:"-" json:"frozen_time"`
	// AdvancedTo is how far the clock has got: every effect due by it is
	// applied, and the clock's objects live at it (column frozen_time).
	// It equals FrozenTime once the clock is ready.
	AdvancedTo wire.Timestamp `bun:"frozen_time,type:timestamptz" json:"advanced_to"`
	// AdvancingTo is the target of the advance running, nil when ready.
	AdvancingTo *wire.Timestamp `bun:"advancing_to,type:timestamptz" json:"-"`
	Status      TestClockStatus `bun:"status" json:"status"`
	Created     wire.Timestamp  `bun:"created,type:timestamptz" json:"created"`
	Updated     wire.Timestamp  `bun:"updated,type:timestamptz" json:"-"`
	Deleted     wire.Timestamp  `bun:"deleted,nullzero,type:timestamptz" json:"-"`

	// Receipt is what an advance's request applied, in order; only the
	// answer of an advance carries it.
	Receipt *TestClockReceipt `bun:"-" json:"receipt,omitempty"`
}

// Derive sets the wire's frozen_time: the target while advancing, else
// the clock's time.
func (c *TestClock) Derive() {
	c.FrozenTime = c.AdvancedTo
	if c.AdvancingTo != nil {
		c.FrozenTime = *c.AdvancingTo
	}
}

// StillAdvancing reports whether the clock is still advancing: its
// advance goes on in the background.
func (c *TestClock) StillAdvancing() bool { return c.Status == TestClockAdvancing }

// TestClockReceipt lists the effects an advance applied, in the order it
// applied them (time, then kind, then object).
type TestClockReceipt struct {
	Effects []*TestClockEffect `json:"effects"`
}

// TestClockEffect is one effect an advance applied: its kind on one
// object, at the instant it fell due, and the events it emitted, in order.
type TestClockEffect struct {
	At       wire.Timestamp      `json:"at"`
	Kind     TestClockEffectKind `json:"kind"`
	ObjectID uuid.UUID           `json:"object_id"`
	Events   []*TestClockEvent   `json:"events"`
}

// TestClockEvent names an event an effect emitted (GET /v1/events/{id}
// has it whole).
type TestClockEvent struct {
	ID   uuid.UUID `json:"id"`
	Type string    `json:"type"`
}

// MaxClockTime bounds frozen_time: the last second of year 9999, the
// last instant PostgreSQL's timestamptz and the wire's dates both hold.
const MaxClockTime = 253402300799

// CreateTestClockInput is the body of POST /v1/test_helpers/test_clocks.
type CreateTestClockInput struct {
	FrozenTime *int64  `json:"frozen_time"`
	Name       *string `json:"name"`
}

// Validate reports every problem at once.
func (in *CreateTestClockInput) Validate() error {
	var f apierr.Fields
	checkFrozenTime(&f, in.FrozenTime)
	checkText(&f, "name", in.Name, 300, false)
	return f.Err()
}

// AdvanceTestClockInput is the body of POST
// /v1/test_helpers/test_clocks/{id}/advance.
type AdvanceTestClockInput struct {
	FrozenTime *int64 `json:"frozen_time"`
}

// Validate reports every problem at once.
func (in *AdvanceTestClockInput) Validate() error {
	var f apierr.Fields
	checkFrozenTime(&f, in.FrozenTime)
	return f.Err()
}

// checkFrozenTime requires Unix seconds from 1970 to the end of year 9999.
func checkFrozenTime(f *apierr.Fields, t *int64) {
	switch {
	case t == nil:
		f.Add("frozen_time", "is required")
	case *t < 0 || *t > MaxClockTime:
		f.Addf("frozen_time", "must be Unix seconds between 0 and %d", MaxClockTime)
	}
}
