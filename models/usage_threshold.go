package models

import (
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// UsageThreshold is a payer's auto-charge threshold (docs/billing.md,
// "Auto-charge threshold"): when the priced usage not yet billed in the
// current cycle reaches it, that usage is invoiced and charged at once.
type UsageThreshold struct {
	bun.BaseModel `bun:"table:usage_thresholds,alias:ut"`
	Tenant

	ID                   uuid.UUID         `bun:"id,pk,type:uuid"`
	CustomerID           *uuid.UUID        `bun:"customer_id,type:uuid"`
	AccountID            *uuid.UUID        `bun:"account_id,type:uuid"`
	ThresholdAmountCents int64             `bun:"threshold_amount_cents"`
	BillingCycle         UsageBillingCycle `bun:"billing_cycle"`
	// TotalsCycle is the start of the cycle the threshold's running totals
	// (usage_threshold_totals) hold, nil while they must be computed from
	// the cycle's events again.
	TotalsCycle *time.Time     `bun:"totals_cycle,type:timestamptz"`
	Created     wire.Timestamp `bun:"created,type:timestamptz"`
	Updated     wire.Timestamp `bun:"updated,type:timestamptz"`
}

type thresholdProgressKind struct{}

func (thresholdProgressKind) objectName() string { return "threshold_progress" }

// ThresholdProgress is where a payer's usage of the current cycle stands
// against its auto-charge threshold (spec doc 2 §2.6). Without a threshold
// threshold_amount_cents and threshold_percentage are 0.
type ThresholdProgress struct {
	Object                 Object[thresholdProgressKind] `json:"object"`
	AccumulatedAmountCents int64                         `json:"accumulated_amount_cents"`
	ThresholdAmountCents   int64                         `json:"threshold_amount_cents"`
	ThresholdPercentage    float64                       `json:"threshold_percentage"`
	OldestPendingChargeAt  *wire.ISOTime                 `json:"oldest_pending_charge_at"`
	PeriodStart            wire.ISOTime                  `json:"period_start"`
	PeriodEnd              wire.ISOTime                  `json:"period_end"`
	BillingCycle           UsageBillingCycle             `json:"billing_cycle"`
	Customer               *uuid.UUID                    `json:"customer"`
	Account                *uuid.UUID                    `json:"account"`
	AccountID              *uuid.UUID                    `json:"account_id"`
	Livemode               bool                          `json:"livemode"`
}

// CycleOf is the monthly cycle containing t: [first of its month, first
// of the next) in UTC.
func CycleOf(t time.Time) (start, end time.Time) {
	t = t.UTC()
	start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 1, 0)
}

// MaxThresholdAmountCents bounds a threshold (a billion dollars).
const MaxThresholdAmountCents = 100_000_000_000

// SetUsageThresholdInput is the body of POST /v1/billing/thresholds: it
// sets (creates or replaces) the payer's auto-charge threshold.
type SetUsageThresholdInput struct {
	Customer             *string            `json:"customer"`
	CustomerID           *string            `json:"customer_id"`
	Account              *string            `json:"account"`
	ThresholdAmountCents *int64             `json:"threshold_amount_cents" range:"amount"`
	BillingCycle         *UsageBillingCycle `json:"billing_cycle"`
}

// Validate reports every problem at once.
func (in *SetUsageThresholdInput) Validate() error {
	var f apierr.Fields
	checkUsagePayer(&f, &in.Customer, in.CustomerID, in.Account)
	switch {
	case in.ThresholdAmountCents == nil:
		f.Add("threshold_amount_cents", "is required")
	case *in.ThresholdAmountCents <= 0 || *in.ThresholdAmountCents > MaxThresholdAmountCents:
		f.Add("threshold_amount_cents", "must be between 1 and "+strconv.FormatInt(MaxThresholdAmountCents, 10))
	}
	checkOneOf(&f, "billing_cycle", in.BillingCycle, BillingCycleMonthly)
	return f.Err()
}

// UsagePayerInput names one payer, customer or account (the threshold
// progress report and the removal of a threshold).
type UsagePayerInput struct {
	Customer   *string `json:"customer"`
	CustomerID *string `json:"customer_id"`
	Account    *string `json:"account"`
}

// Validate requires exactly one payer.
func (in *UsagePayerInput) Validate() error {
	var f apierr.Fields
	checkUsagePayer(&f, &in.Customer, in.CustomerID, in.Account)
	return f.Err()
}
