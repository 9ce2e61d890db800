package models

import "github.com/frame-oss/payments-server/internal/platform/apierr"

// MeteringInput is the body of POST /v1/billing/metering: a meter's
// configuration (event_name, aggregation, product, metadata), or, when it
// carries a usage record's members (a value, a payer, a timestamp, a
// reference), one unit of usage to record (UsageRecord). A member of the
// other kind is refused by name, never dropped unseen.
type MeteringInput struct {
	EventName *string `json:"event_name"`
	// Name is the event name under the name the Ruby SDK sends and reads.
	Name        *string           `json:"name"`
	Aggregation *MeterAggregation `json:"aggregation"`
	Product     *string           `json:"product"`
	Metadata    MetadataInput     `json:"metadata"`

	Value            *UsageNumber `json:"value"`
	Customer         *string      `json:"customer"`
	CustomerID       *string      `json:"customer_id"`
	Account          *string      `json:"account"`
	Timestamp        *UsageTime   `json:"timestamp"`
	Reference        *string      `json:"reference"`
	MarkupPercentage *UsageNumber `json:"markup_percentage"`
}

// RecordsUsage reports whether the body is a usage record: it carries a
// member only a metering event has.
func (in *MeteringInput) RecordsUsage() bool {
	return in.Value != nil || in.Customer != nil || in.CustomerID != nil || in.Account != nil ||
		in.Timestamp != nil || in.Reference != nil || in.MarkupPercentage != nil
}

// Meter is the body as a meter's configuration.
func (in *MeteringInput) Meter() *CreateBillingMeterInput {
	name, refused := in.eventName()
	return &CreateBillingMeterInput{EventName: name, MeterSettings: MeterSettings{Aggregation: in.Aggregation,
		Product: in.Product, Metadata: in.Metadata, refused: refused}}
}

// Event is the body as a metering event, recorded under reference when it
// names none; a meter's members are refused there.
func (in *MeteringInput) Event(reference string) *CreateMeteringEventInput {
	name, refused := in.eventName()
	ev := &CreateMeteringEventInput{EventName: name, Reference: in.Reference, Customer: in.Customer,
		CustomerID: in.CustomerID, Account: in.Account, Value: in.Value, Timestamp: in.Timestamp,
		MarkupPercentage: in.MarkupPercentage, Metadata: in.Metadata,
		refused: append(refused, meterMembers(in.Aggregation, in.Product)...)}
	if ev.Reference == nil {
		ev.Reference = &reference
	}
	return ev
}

// eventName settles name into event_name: either names it, both the same.
func (in *MeteringInput) eventName() (*string, fieldProblems) {
	switch {
	case in.EventName == nil:
		return in.Name, nil
	case in.Name != nil && *in.Name != *in.EventName:
		return in.EventName, fieldProblems{{"name", "differs from event_name"}}
	}
	return in.EventName, nil
}

// meterMembers refuses the meter's configuration members a usage record's
// body sets.
func meterMembers(agg *MeterAggregation, product *string) fieldProblems {
	var out fieldProblems
	if agg != nil {
		out = append(out, fieldProblem{"aggregation", meterMemberOnUsage})
	}
	if product != nil {
		out = append(out, fieldProblem{"product", meterMemberOnUsage})
	}
	return out
}

// UpdateMeteringInput is the body of PATCH /v1/billing/metering/{id}: a
// meter's changes (aggregation, product, metadata) or a usage record's
// correction (value, timestamp, metadata), as the id names a meter or a
// usage record. A member of the other kind is refused by name.
type UpdateMeteringInput struct {
	Aggregation *MeterAggregation `json:"aggregation"`
	Product     *string           `json:"product"`
	Metadata    MetadataInput     `json:"metadata"`
	Value       *UsageNumber      `json:"value"`
	Timestamp   *UsageTime        `json:"timestamp"`
}

// Meter is the body as a meter's changes; a usage record's members are
// refused there.
func (in *UpdateMeteringInput) Meter() *UpdateBillingMeterInput {
	var refused fieldProblems
	if in.Value != nil {
		refused = append(refused, fieldProblem{"value", usageMemberOnMeter})
	}
	if in.Timestamp != nil {
		refused = append(refused, fieldProblem{"timestamp", usageMemberOnMeter})
	}
	return &UpdateBillingMeterInput{MeterSettings{Aggregation: in.Aggregation, Product: in.Product,
		Metadata: in.Metadata, refused: refused}}
}

// Event is the body as a usage record's correction; a meter's members are
// refused there.
func (in *UpdateMeteringInput) Event() *UpdateMeteringEventInput {
	return &UpdateMeteringEventInput{Value: in.Value, Timestamp: in.Timestamp, Metadata: in.Metadata,
		refused: meterMembers(in.Aggregation, in.Product)}
}

// fieldProblem is a problem found while a body of /v1/billing/metering was
// read as one kind of object, reported with the object's own problems.
type fieldProblem struct{ path, problem string }

type fieldProblems []fieldProblem

func (ps fieldProblems) addTo(f *apierr.Fields) {
	for _, p := range ps {
		f.Add(p.path, p.problem)
	}
}

const (
	meterMemberOnUsage = "configures a meter: send it without value, payer, timestamp or reference"
	usageMemberOnMeter = "is a usage record's: this id names a meter, which has no value or timestamp"
)
