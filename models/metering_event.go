package models

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type meteringEventKind struct{}

func (meteringEventKind) objectName() string { return "billing_metric_event" }

// MeteringEvent is one unit of usage a merchant reports for a payer (spec
// doc 2 §2.6, "Billing metric event"). Its (event_name, reference) is
// unique in the merchant's mode for ever: reporting it again answers this
// event and changes nothing. Once an invoice bills it (invoice), it no
// longer changes: invoice is BilledBy as reads derive it (the auto-charge
// that claimed the event, else the usage invoice whose window holds it,
// migration 00052), while the invoice_id column holds auto-charges alone.
type MeteringEvent struct {
	bun.BaseModel `bun:"table:metering_events,alias:me"`
	Tenant

	ID               uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[meteringEventKind] `bun:"-" json:"object"`
	MeterID          uuid.UUID                 `bun:"meter_id,type:uuid" json:"meter_id"`
	EventName        string                    `bun:"event_name" json:"event_name"`
	Reference        string                    `bun:"reference" json:"reference"`
	CustomerID       *uuid.UUID                `bun:"customer_id,type:uuid" json:"customer_id"`
	AccountID        *uuid.UUID                `bun:"account_id,type:uuid" json:"account_id"`
	Value            UsageNumber               `bun:"value,type:numeric" json:"value"`
	MarkupPercentage *UsageNumber              `bun:"markup_percentage,type:numeric" json:"markup_percentage"`
	Timestamp        wire.ISOTime              `bun:"timestamp,type:timestamptz" json:"timestamp"`
	Metadata         Metadata                  `bun:"metadata,type:jsonb" json:"metadata"`
	InvoiceID        *uuid.UUID                `bun:"invoice_id,type:uuid" json:"invoice"`
	// BilledBy is the invoice metering_events_billed derives for the
	// event (read only): reads make it the event's invoice.
	BilledBy *uuid.UUID     `bun:"billed_by,scanonly,type:uuid" json:"-"`
	Created  wire.Timestamp `bun:"created,type:timestamptz" json:"created"`
	Updated  wire.Timestamp `bun:"updated,type:timestamptz" json:"updated"`
}

// MaxReferenceLength bounds a metering event's reference.
const MaxReferenceLength = 255

// CreateMeteringEventInput is the body of POST /v1/billing/metering_events.
// customer_id (the SDK's name) is taken for customer; account may stand
// for customer (one payer, exactly).
type CreateMeteringEventInput struct {
	EventName        *string       `json:"event_name"`
	Reference        *string       `json:"reference"`
	Customer         *string       `json:"customer"`
	CustomerID       *string       `json:"customer_id"`
	Account          *string       `json:"account"`
	Value            *UsageNumber  `json:"value"`
	Timestamp        *UsageTime    `json:"timestamp"`
	MarkupPercentage *UsageNumber  `json:"markup_percentage"`
	Metadata         MetadataInput `json:"metadata"`
	// refused are problems of the body it was read from on
	// /v1/billing/metering (MeteringInput.Event): a meter's members.
	refused fieldProblems
}

// Validate reports every problem at once; it settles customer_id into
// Customer.
func (in *CreateMeteringEventInput) Validate() error {
	var f apierr.Fields
	in.refused.addTo(&f)
	if in.Customer == nil {
		in.Customer = in.CustomerID
	} else if in.CustomerID != nil && *in.CustomerID != *in.Customer {
		f.Add("customer_id", "differs from customer")
	}
	checkOnePayer(&f, in.Customer, in.Account, payerRequiredAlone)
	checkEventName(&f, "event_name", in.EventName, true)
	checkText(&f, "reference", in.Reference, MaxReferenceLength, true)
	checkUsageNumber(&f, "value", in.Value, true)
	checkUsageNumber(&f, "markup_percentage", in.MarkupPercentage, false)
	in.Timestamp.check(&f, "timestamp")
	checkUsageMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}

// UpdateMeteringEventInput is the body of PATCH
// /v1/billing/metering_events/{id}: a correction of an event not yet
// billed (docs/billing.md).
type UpdateMeteringEventInput struct {
	Value     *UsageNumber  `json:"value"`
	Timestamp *UsageTime    `json:"timestamp"`
	Metadata  MetadataInput `json:"metadata"`
	// refused are problems of the body it was read from on
	// /v1/billing/metering/{id} (UpdateMeteringInput.Event): a meter's
	// members.
	refused fieldProblems
}

// Validate reports every problem at once.
func (in *UpdateMeteringEventInput) Validate() error {
	var f apierr.Fields
	in.refused.addTo(&f)
	checkUsageNumber(&f, "value", in.Value, false)
	in.Timestamp.check(&f, "timestamp")
	checkUsageMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}

// UsageTime is an instant of usage: an ISO 8601 string (the spec's), or
// Unix seconds (the SDK's number). Malformed input is kept and refused by
// check, with the other field problems.
type UsageTime struct {
	Time time.Time
	bad  bool
}

// UnmarshalJSON reads an RFC 3339 string or Unix seconds.
func (t *UsageTime) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.Parse(time.RFC3339, s)
		t.Time, t.bad = v.UTC().Truncate(time.Second), err != nil
		return nil
	}
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		t.bad = true
		return nil
	}
	t.Time = time.Unix(n, 0).UTC()
	return nil
}

// MinUsageTime and MaxUsageTime bound usage instants: PostgreSQL and the
// wire hold years 1970 to 9999.
var (
	MinUsageTime = time.Unix(0, 0).UTC()
	MaxUsageTime = time.Unix(MaxClockTime, 0).UTC()
)

func (t *UsageTime) check(f *apierr.Fields, path string) {
	switch {
	case t == nil:
	case t.bad:
		f.Add(path, "must be an ISO 8601 date-time (2026-01-31T09:30:00Z) or Unix seconds")
	case t.Time.Before(MinUsageTime) || t.Time.After(MaxUsageTime):
		f.Add(path, "must be between 1970 and the end of 9999")
	}
}
