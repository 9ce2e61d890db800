package models

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type usageRecordKind struct{}

func (usageRecordKind) objectName() string { return "billing_metering" }

// UsageRecord is a metering event as /v1/billing/metering answers it. The
// spec does not name that path; the real service's SDKs use it two ways:
// the Node SDK records usage there (its Metering: event_name, customer_id,
// value, timestamp as Unix seconds), the Ruby SDK reads a meter's name
// there. So a POST carrying a value or a payer records a metering event
// (the same ingest as /v1/billing/metering_events) and answers it in the
// shape both read: the event's members with its timestamp in Unix
// seconds, its event name again as name, and a payer it does not have
// left out (the SDK's customer_id is optional, not nullable). The object
// name is the one the real service's SDK fixtures give this path.
type UsageRecord struct {
	Tenant
	ID               uuid.UUID               `json:"id"`
	Object           Object[usageRecordKind] `json:"object"`
	Name             string                  `json:"name"`
	EventName        string                  `json:"event_name"`
	MeterID          uuid.UUID               `json:"meter_id"`
	Reference        string                  `json:"reference"`
	CustomerID       *uuid.UUID              `json:"customer_id,omitempty"`
	AccountID        *uuid.UUID              `json:"account_id,omitempty"`
	Value            UsageNumber             `json:"value"`
	MarkupPercentage *UsageNumber            `json:"markup_percentage,omitempty"`
	Timestamp        wire.Timestamp          `json:"timestamp"`
	Metadata         Metadata                `json:"metadata"`
	InvoiceID        *uuid.UUID              `json:"invoice"`
	Created          wire.Timestamp          `json:"created"`
	Updated          wire.Timestamp          `json:"updated"`
}

// UsageRecordOf renders ev as a usage record.
func UsageRecordOf(ev *MeteringEvent) *UsageRecord {
	return &UsageRecord{Tenant: ev.Tenant, ID: ev.ID, Name: ev.EventName, EventName: ev.EventName, MeterID: ev.MeterID,
		Reference: ev.Reference, CustomerID: ev.CustomerID, AccountID: ev.AccountID, Value: ev.Value,
		MarkupPercentage: ev.MarkupPercentage, Timestamp: At(ev.Timestamp.Time), Metadata: ev.Metadata,
		InvoiceID: ev.InvoiceID, Created: ev.Created, Updated: ev.Updated}
}

// Metering is what /v1/billing/metering answers: the meter it configures
// or reads, or the usage record it records, reads or corrects. Exactly one
// is set; it renders as that one alone.
type Metering struct {
	Meter  *BillingMeter `json:"meter,omitempty"`
	Record *UsageRecord  `json:"usage_record,omitempty"`
}

// MarshalJSON renders the one object set.
func (m Metering) MarshalJSON() ([]byte, error) {
	if m.Record != nil {
		return json.Marshal(m.Record)
	}
	return json.Marshal(m.Meter)
}
