package models

import (
	"regexp"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type billingMeterKind struct{}

func (billingMeterKind) objectName() string { return "billing_meter" }

var meterAggregations = []string{string(AggregateSum), string(AggregateCount), string(AggregateMax)}

// BillingMeter is how one event name's usage is aggregated and priced
// (the events' meter_id). The first event of a name makes its meter
// (sum, not priced); POST /v1/billing/metering configures it. Product
// prices one unit of usage at its default_price; usage of a meter without
// a product is reported but never billed.
type BillingMeter struct {
	bun.BaseModel `bun:"table:billing_meters,alias:bm"`
	Tenant

	ID        uuid.UUID                `bun:"id,pk,type:uuid" json:"id"`
	Object    Object[billingMeterKind] `bun:"-" json:"object"`
	EventName string                   `bun:"event_name" json:"event_name"`
	// Name is the event name under the name the Ruby SDK reads a meter's
	// by (Derive).
	Name        string           `bun:"-" json:"name"`
	Aggregation MeterAggregation `bun:"aggregation" json:"aggregation"`
	ProductID   *uuid.UUID       `bun:"product_id,type:uuid" json:"product"`
	Metadata    Metadata         `bun:"metadata,type:jsonb" json:"metadata"`
	Created     wire.Timestamp   `bun:"created,type:timestamptz" json:"created"`
	Updated     wire.Timestamp   `bun:"updated,type:timestamptz" json:"updated"`
}

// Derive sets the meter's name: its event name.
func (m *BillingMeter) Derive() { m.Name = m.EventName }

// MaxEventNameLength bounds an event name (a meter's key).
const MaxEventNameLength = 100

// MeterSettings are the members a meter's configuration and its update
// both send: declared and checked once for both.
type MeterSettings struct {
	Aggregation *MeterAggregation `json:"aggregation"`
	Product     *string           `json:"product"`
	Metadata    MetadataInput     `json:"metadata"`
	// refused are problems of the body the settings were read from on
	// /v1/billing/metering (MeteringInput.Meter, UpdateMeteringInput.Meter):
	// a usage record's members.
	refused fieldProblems
}

// check reports every problem of the settings but the refused members
// into f (a create reports those before its event name). An update's empty
// product stops pricing the meter, so only a create checks an empty one.
func (in *MeterSettings) check(f *apierr.Fields, update bool) {
	checkOneOf(f, "aggregation", (*string)(in.Aggregation), meterAggregations...)
	if !update || in.Product != nil && *in.Product != "" {
		checkText(f, "product", in.Product, 64, false)
	}
	checkUsageMetadata(f, "metadata", in.Metadata)
}

// CreateBillingMeterInput is the body of POST /v1/billing/metering: it
// configures the meter of event_name, making it when no event has yet.
type CreateBillingMeterInput struct {
	EventName *string `json:"event_name"`
	MeterSettings
}

// Validate reports every problem at once.
func (in *CreateBillingMeterInput) Validate() error {
	var f apierr.Fields
	in.refused.addTo(&f)
	checkEventName(&f, "event_name", in.EventName, true)
	in.check(&f, false)
	return f.Err()
}

// UpdateBillingMeterInput is the body of PATCH /v1/billing/metering/{id}.
// product: an id prices the meter; an empty string stops pricing it.
type UpdateBillingMeterInput struct{ MeterSettings }

// Validate reports every problem at once.
func (in *UpdateBillingMeterInput) Validate() error {
	var f apierr.Fields
	in.refused.addTo(&f)
	in.check(&f, true)
	return f.Err()
}

var reEventName = regexp.MustCompile(`^[A-Za-z0-9._:-]+$`)

// checkEventName requires a name of 1 to 100 letters, digits and "._:-"
// (it is a path segment of the event report).
func checkEventName(f *apierr.Fields, path string, s *string, required bool) {
	if !checkText(f, path, s, MaxEventNameLength, required) || s == nil {
		return
	}
	if !reEventName.MatchString(*s) {
		f.Add(path, "must be letters, digits and . _ : - only")
	}
}

// checkUsageMetadata is checkMetadata with the key count bounded.
func checkUsageMetadata(f *apierr.Fields, path string, m MetadataInput) {
	checkMetadata(f, path, m)
	if len(m) > 20 {
		f.Add(path, "must have at most 20 keys")
	}
}

// eventNames splits a comma-separated list of event names (s, at path),
// each once, in order, at most max of them. The list is bounded before it
// is split and a malformed name stops the split, so a hostile list costs
// neither memory nor a long answer: one problem at path at most per rule.
func eventNames(f *apierr.Fields, path string, s *string, max int, required bool) []string {
	if !checkText(f, path, s, max*(MaxEventNameLength+1), required) || s == nil {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, name := range strings.Split(*s, ",") {
		name = strings.TrimSpace(name)
		if seen[name] {
			continue
		}
		seen[name] = true
		if name == "" || len(name) > MaxEventNameLength || !reEventName.MatchString(name) {
			f.Add(path, "must be comma-separated event names (letters, digits and . _ : -, at most 100 each)")
			return nil
		}
		names = append(names, name)
	}
	if len(names) > max {
		f.Addf(path, "must name at most %d events", max)
	}
	return names
}
