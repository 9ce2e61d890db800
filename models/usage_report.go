package models

import (
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

type usageReportKind struct{}

func (usageReportKind) objectName() string { return "usage_report" }

type billingReportKind struct{}

func (billingReportKind) objectName() string { return "billing_report" }

// UsageReport is a payer's usage in a window, per event name (spec doc 2
// §2.6, "Usage report"; docs/billing.md, "Usage reports"). It is read in
// the request from the events as they are, never stored: a report sees
// every event written before it. usage is the sum of the elements' usage
// (each aggregated by its meter); the elements are in event name order,
// or in the order the events report asked. customer, account and
// account_id name the payer (all null for a report over every payer);
// account_id repeats account, the SDK's name.
type UsageReport struct {
	Object          Object[usageReportKind] `json:"object"`
	AggregatedUsage []*EventUsage           `json:"aggregated_usage"`
	CustomerID      *uuid.UUID              `json:"customer"`
	AccountID       *uuid.UUID              `json:"account"`
	AccountIDAlias  *uuid.UUID              `json:"account_id"`
	SubscriptionID  *uuid.UUID              `json:"subscription,omitempty"`
	Usage           string                  `json:"usage"`
	PeriodStart     ISOTime                 `json:"period_start"`
	PeriodEnd       ISOTime                 `json:"period_end"`
	Livemode        bool                    `json:"livemode"`
	// Data is aggregated_usage again, where the real service's Node SDK
	// reads a report's rows (BillingReport.data).
	Data []*EventUsage `json:"data"`
}

// EventUsage is one event name's usage in a report's window (an element
// of aggregated_usage, a shape the spec leaves open): its meter and the
// meter's aggregation, the aggregated usage, the number of events, and
// the part of the usage an invoice billed and the part still unbilled
// (each aggregated alone: for max, the largest billed and the largest
// unbilled value). product is the meter's product (null: usage reported,
// never billed). meter_id is null for a name no event ever used. Usages
// are decimal strings.
type EventUsage struct {
	EventName      string           `json:"event_name"`
	MeterID        *uuid.UUID       `json:"meter_id"`
	Aggregation    MeterAggregation `json:"aggregation"`
	ProductID      *uuid.UUID       `json:"product"`
	Usage          string           `json:"usage"`
	EventCount     int64            `json:"event_count"`
	BilledUsage    string           `json:"billed_usage"`
	UnbilledUsage  string           `json:"unbilled_usage"`
	BilledEvents   int64            `json:"billed_event_count"`
	UnbilledEvents int64            `json:"unbilled_event_count"`
}

// EventReport is one event name's usage in a window, for one payer or for
// every payer of the mode (spec doc 2 §2.6, "Event report"). billing_metric
// is the name's meter (null when no event ever used the name).
type EventReport struct {
	Object         Object[billingReportKind] `json:"object"`
	Aggregation    MeterAggregation          `json:"aggregation"`
	EventName      string                    `json:"event_name"`
	Usage          string                    `json:"usage"`
	EventCount     int64                     `json:"event_count"`
	BillingMetric  *uuid.UUID                `json:"billing_metric"`
	CustomerID     *uuid.UUID                `json:"customer"`
	AccountID      *uuid.UUID                `json:"account"`
	AccountIDAlias *uuid.UUID                `json:"account_id"`
	PeriodStart    ISOTime                   `json:"period_start"`
	PeriodEnd      ISOTime                   `json:"period_end"`
	Livemode       bool                      `json:"livemode"`
	// Data is the event name's row, as a usage report lists it, where the
	// real service's Node SDK reads a report's rows (BillingReport.data).
	Data []*EventUsage `json:"data"`
}

// UsageWindow is a report's window, half-open [Start, End) in UTC.
type UsageWindow struct {
	Start, End time.Time
}

// CustomerUsageReportInput is the query of GET /v1/billing/report/customer.
type CustomerUsageReportInput struct {
	From     *string
	To       *string
	Customer *string
	Account  *string
	// Window is From and To once Validate accepted them.
	Window UsageWindow
}

// Validate reports every problem at once: both bounds, the window's
// order, and exactly one payer.
func (in *CustomerUsageReportInput) Validate() error {
	var f apierr.Fields
	in.Window = checkUsageWindow(&f, "from", in.From, "to", in.To)
	checkOnePayer(&f, in.Customer, in.Account, payerRequiredOrAccount)
	return f.Err()
}

// EventReportSpan is what the reports by event name (one name or a list)
// ask besides their names: the window, from start_date to end_date, and
// the payer, which is optional: without one the report covers every payer
// of the mode.
type EventReportSpan struct {
	StartDate *string
	EndDate   *string
	Customer  *string
	Account   *string
	// Window is StartDate and EndDate once Validate accepted them.
	Window UsageWindow
	// Names are the event names the report covers, in order, without
	// repeats, once Validate accepted them.
	Names []string
}

// check reads the window and requires at most one payer.
func (s *EventReportSpan) check(f *apierr.Fields) {
	s.Window = checkUsageWindow(f, "start_date", s.StartDate, "end_date", s.EndDate)
	checkOnePayer(f, s.Customer, s.Account, "")
}

// EventReportInput is the query of GET /v1/billing/report/event/{event_name}
// (EventName from the path).
type EventReportInput struct {
	EventName *string
	EventReportSpan
}

// Validate reports every problem at once.
func (in *EventReportInput) Validate() error {
	var f apierr.Fields
	checkEventName(&f, "event_name", in.EventName, true)
	in.check(&f)
	if err := f.Err(); err != nil {
		return err
	}
	in.Names = []string{*in.EventName}
	return nil
}

// MaxReportEvents bounds the event names one events report asks for.
const MaxReportEvents = 50

// EventsReportInput is the query of GET /v1/billing/report/events: events
// is a comma-separated list of event names (repeats count once).
type EventsReportInput struct {
	Events *string
	EventReportSpan
}

// Validate reports every problem at once.
func (in *EventsReportInput) Validate() error {
	var f apierr.Fields
	in.Names = eventNames(&f, "events", in.Events, MaxReportEvents, true)
	in.check(&f)
	return f.Err()
}

// SubscriptionUsageReportInput is the query of GET
// /v1/billing/report/subscription.
type SubscriptionUsageReportInput struct {
	Subscription *string
}

// Validate requires the subscription.
func (in *SubscriptionUsageReportInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "subscription", in.Subscription, 64, true)
	return f.Err()
}

// checkUsageWindow reads a report's bounds (ISO 8601 or Unix seconds,
// both required) and requires end after start.
func checkUsageWindow(f *apierr.Fields, startParam string, start *string, endParam string, end *string) UsageWindow {
	from, okFrom := checkUsageInstant(f, startParam, start)
	to, okTo := checkUsageInstant(f, endParam, end)
	if okFrom && okTo && !to.After(from) {
		f.Add(endParam, "must be after "+startParam)
	}
	return UsageWindow{Start: from, End: to}
}

func checkUsageInstant(f *apierr.Fields, param string, s *string) (time.Time, bool) {
	if s == nil || *s == "" {
		f.Add(param, "is required")
		return time.Time{}, false
	}
	at, ok := ParseUsageInstant(*s)
	switch {
	case !ok:
		f.Add(param, "must be an ISO 8601 date-time (2026-01-31T09:30:00Z), a date (2026-01-31) or Unix seconds")
	case at.Before(MinUsageTime) || at.After(MaxUsageTime):
		f.Add(param, "must be between 1970 and the end of 9999")
	default:
		return at, true
	}
	return time.Time{}, false
}

// ParseUsageInstant reads an instant of a report's window: an RFC 3339
// date-time, a date (midnight UTC), or Unix seconds; in UTC, to the
// second (a fraction is dropped, as events' timestamps drop it).
func ParseUsageInstant(s string) (time.Time, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), true
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if at, err := time.Parse(layout, s); err == nil {
			return at.UTC().Truncate(time.Second), true
		}
	}
	return time.Time{}, false
}
