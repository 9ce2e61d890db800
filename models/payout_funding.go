package models

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/funding"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type fundingScheduleKind struct{}

func (fundingScheduleKind) objectName() string { return "payout_funding_schedule" }

type fundingEntryKind struct{}

func (fundingEntryKind) objectName() string { return "payout_funding_entry" }

// maxUnixSeconds is the last second of year 9999: a next_run beyond it is
// a mistake, not a plan.
const maxUnixSeconds = 253_402_300_799

// FundingSchedule pulls Amount into the instant-payout balance at every
// run of its cadence (spec doc 2 §2.7, §4.7). Anchor is the run the cadence
// counts from (not rendered).
type FundingSchedule struct {
	bun.BaseModel `bun:"table:payout_funding_schedules,alias:fs"`
	Tenant

	ID       uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object   Object[fundingScheduleKind] `bun:"-" json:"object"`
	Amount   int64                       `bun:"amount" json:"amount"`
	Currency string                      `bun:"currency" json:"currency"`
	Cadence  FundingCadence              `bun:"cadence" json:"cadence"`
	Enabled  bool                        `bun:"enabled" json:"enabled"`
	NextRun  wire.Timestamp              `bun:"next_run,type:timestamptz" json:"next_run"`
	Anchor   time.Time                   `bun:"anchor" json:"-"`
	LastRun  wire.Timestamp              `bun:"last_run,type:timestamptz,nullzero" json:"last_run"`
	Created  wire.Timestamp              `bun:"created,type:timestamptz" json:"created"`
	Updated  wire.Timestamp              `bun:"updated,type:timestamptz" json:"updated"`
}

// FundingEntry is one funding of the instant-payout balance (spec doc 2
// §2.7): a top-up (source manual_push) or a schedule's run (source
// schedule, with the schedule's id).
type FundingEntry struct {
	bun.BaseModel `bun:"table:payout_funding_entries,alias:fe"`
	Tenant

	ID             uuid.UUID                `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[fundingEntryKind] `bun:"-" json:"object"`
	ScheduleID     *uuid.UUID               `bun:"schedule_id,type:uuid" json:"schedule"`
	RunAt          wire.Timestamp           `bun:"run_at,type:timestamptz,nullzero" json:"-"`
	Amount         int64                    `bun:"amount" json:"amount"`
	Currency       string                   `bun:"currency" json:"currency"`
	Source         FundingSource            `bun:"source" json:"source"`
	IdempotencyKey *string                  `bun:"idempotency_key" json:"-"`
	Created        wire.Timestamp           `bun:"created,type:timestamptz" json:"created"`
}

// FundingScheduleFields are the members a create and an update of a
// funding schedule send: declared and checked once for both, which differ
// only in what a create requires. NextRun is Unix seconds.
type FundingScheduleFields struct {
	Amount  *int64          `json:"amount" range:"amount"`
	Cadence *FundingCadence `json:"cadence"`
	Enabled *bool           `json:"enabled"`
	NextRun *int64          `json:"next_run" range:"unix"`
}

// check reports every problem of the members sent into f; a create
// (required) must send an amount and a cadence.
func (in *FundingScheduleFields) check(f *apierr.Fields, required bool) {
	if required || in.Amount != nil {
		checkAmount(f, "amount", in.Amount, true)
	}
	if required && in.Cadence == nil {
		f.Add("cadence", "is required")
	}
	checkCadence(f, in.Cadence)
	checkUnix(f, "next_run", in.NextRun)
}

// CreateFundingScheduleInput is the body of POST
// /v1/payout_funding/schedules. NextRun defaults to now: the next sweep
// runs it.
type CreateFundingScheduleInput struct{ FundingScheduleFields }

// Validate checks the create, every problem at once.
func (in *CreateFundingScheduleInput) Validate() error {
	var f apierr.Fields
	in.check(&f, true)
	return f.Err()
}

// UpdateFundingScheduleInput is the body of PATCH
// /v1/payout_funding/schedules/{id}: members sent replace, members omitted
// stay.
type UpdateFundingScheduleInput struct{ FundingScheduleFields }

// Validate checks the update, every problem at once.
func (in *UpdateFundingScheduleInput) Validate() error {
	var f apierr.Fields
	in.check(&f, false)
	return f.Err()
}

// CreateTopUpInput is the body of POST /v1/payout_funding/top_ups. A
// repeated IdempotencyKey answers the entry it created first and funds
// nothing (spec doc 2 §4.7; its own rule beside the Idempotency-Key
// header).
type CreateTopUpInput struct {
	Amount         *int64  `json:"amount" range:"amount"`
	IdempotencyKey *string `json:"idempotency_key"`
}

// Validate checks the top-up, every problem at once.
func (in *CreateTopUpInput) Validate() error {
	var f apierr.Fields
	checkAmount(&f, "amount", in.Amount, true)
	if checkText(&f, "idempotency_key", in.IdempotencyKey, 255, false) && in.IdempotencyKey != nil && *in.IdempotencyKey == "" {
		f.Add("idempotency_key", "must not be empty")
	}
	return f.Err()
}

func checkCadence(f *apierr.Fields, c *FundingCadence) {
	if c != nil && !funding.Cadence(*c).Valid() {
		f.Add("cadence", "must be one of daily, weekly, monthly")
	}
}

func checkUnix(f *apierr.Fields, path string, v *int64) {
	if v != nil && (*v < 0 || *v > maxUnixSeconds) {
		f.Add(path, "must be a Unix timestamp in seconds")
	}
}
