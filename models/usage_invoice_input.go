package models

import (
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CreateUsageInvoiceInput is the body of POST /v1/billing/billing_invoice:
// the payer's priced usage in [start_date, end_date), one line per event
// name (events narrows the names). customer_id (the SDK's name) is taken
// for customer.
type CreateUsageInvoiceInput struct {
	StartDate        *UsageTime        `json:"start_date"`
	EndDate          *UsageTime        `json:"end_date"`
	Customer         *string           `json:"customer"`
	CustomerID       *string           `json:"customer_id"`
	Account          *string           `json:"account"`
	CollectionMethod *CollectionMethod `json:"collection_method"`
	Description      *string           `json:"description"`
	Memo             *string           `json:"memo"`
	NetTerms         *int              `json:"net_terms"`
	Events           *string           `json:"events"`
	Metadata         MetadataInput     `json:"metadata"`

	// names are the event names events lists, once each, in order.
	names []string
}

// MaxInvoiceEventNames bounds the event names one usage invoice names.
const MaxInvoiceEventNames = 50

// Validate reports every problem at once; it settles customer_id into
// Customer and splits events. That end_date is not after the payer's time
// is the write's check (the payer's clock is read there).
func (in *CreateUsageInvoiceInput) Validate() error {
	var f apierr.Fields
	checkUsagePayer(&f, &in.Customer, in.CustomerID, in.Account)
	if in.StartDate == nil {
		f.Add("start_date", "is required")
	}
	if in.EndDate == nil {
		f.Add("end_date", "is required")
	}
	in.StartDate.check(&f, "start_date")
	in.EndDate.check(&f, "end_date")
	if in.StartDate != nil && in.EndDate != nil && !in.StartDate.bad && !in.EndDate.bad &&
		!in.EndDate.Time.After(in.StartDate.Time) {
		f.Add("end_date", "must be after start_date")
	}
	checkCollectionMethod(&f, in.CollectionMethod)
	checkInvoiceFields(&f, nil, in.Description, in.Memo, in.NetTerms, in.Metadata)
	in.names = nil
	in.names = eventNames(&f, "events", in.Events, MaxInvoiceEventNames, false)
	return f.Err()
}

// EventNames are the event names events lists (nil: every name).
func (in *CreateUsageInvoiceInput) EventNames() []string { return in.names }

// Method is the collection method asked, charge_automatically by default.
func (in *CreateUsageInvoiceInput) Method() CollectionMethod {
	if in.CollectionMethod == nil {
		return ChargeAutomatically
	}
	return CollectionMethodOf(*in.CollectionMethod)
}
