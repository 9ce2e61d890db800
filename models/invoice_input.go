package models

import (
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// maxNetTerms bounds net_terms: a year and a half of days.
const maxNetTerms = 540

// maxLineItemQuantity keeps quantity × unit price far from overflowing.
const maxLineItemQuantity = 1_000_000

// CreateInvoiceInput is the body of POST /v1/invoices (spec doc 2 §4.5),
// with the official SDK's line_items and metadata.
type CreateInvoiceInput struct {
	CollectionMethod *CollectionMethod         `json:"collection_method"`
	Customer         *string                   `json:"customer"`
	Account          *string                   `json:"account"`
	DueDate          *string                   `json:"due_date"`
	Description      *string                   `json:"description"`
	Memo             *string                   `json:"memo"`
	Currency         *string                   `json:"currency"`
	NetTerms         *int                      `json:"net_terms"`
	Metadata         MetadataInput             `json:"metadata"`
	LineItems        OneOrMany[*LineItemInput] `json:"line_items"`
}

// MaxInvoiceLineItems bounds the lines of one invoice: an invoice is read
// whole, its lines in its own row, so their number must have a limit.
const MaxInvoiceLineItems = 250

// Validate checks the input, every problem at once.
func (in *CreateInvoiceInput) Validate() error {
	var f apierr.Fields
	if in.CollectionMethod == nil {
		f.Add("collection_method", "is required")
	}
	checkCollectionMethod(&f, in.CollectionMethod)
	checkOnePayer(&f, in.Customer, in.Account, payerRequired)
	checkCurrency(&f, "currency", in.Currency)
	checkInvoiceFields(&f, in.DueDate, in.Description, in.Memo, in.NetTerms, in.Metadata)
	if len(in.LineItems) > MaxInvoiceLineItems {
		f.Add("line_items", "must have at most "+strconv.Itoa(MaxInvoiceLineItems)+" line items")
		return f.Err()
	}
	for i, li := range in.LineItems {
		if li == nil {
			f.Add("line_items."+strconv.Itoa(i), "is required")
			continue
		}
		li.check(&f, "line_items."+strconv.Itoa(i)+".", true)
	}
	return f.Err()
}

// CollectionMethodOf is the collection method as stored: the description's
// auto_charge is charge_automatically.
func CollectionMethodOf(m CollectionMethod) CollectionMethod {
	if m == "auto_charge" {
		return ChargeAutomatically
	}
	return m
}

// CurrencyOf is the invoice currency given, lower case (usd by default).
func (in *CreateInvoiceInput) CurrencyOf() string {
	if in.Currency == nil {
		return "usd"
	}
	return strings.ToLower(*in.Currency)
}

// UpdateInvoiceInput is the body of PATCH /v1/invoices/{id}. A draft takes
// every member; an issued invoice only its description, memo and metadata.
type UpdateInvoiceInput struct {
	CollectionMethod *CollectionMethod `json:"collection_method"`
	DueDate          *string           `json:"due_date"`
	Description      *string           `json:"description"`
	Memo             *string           `json:"memo"`
	NetTerms         *int              `json:"net_terms"`
	Metadata         MetadataInput     `json:"metadata"`
}

// Validate checks the input, every problem at once.
func (in *UpdateInvoiceInput) Validate() error {
	var f apierr.Fields
	checkCollectionMethod(&f, in.CollectionMethod)
	checkInvoiceFields(&f, in.DueDate, in.Description, in.Memo, in.NetTerms, in.Metadata)
	return f.Err()
}

// DraftOnly says whether the update changes what only a draft may change.
func (in *UpdateInvoiceInput) DraftOnly() bool {
	return in.CollectionMethod != nil || in.DueDate != nil || in.NetTerms != nil
}

// ApplyTo sets the members the input carries on inv.
func (in *UpdateInvoiceInput) ApplyTo(inv *Invoice, f *apierr.Fields) {
	if in.CollectionMethod != nil {
		inv.CollectionMethod = CollectionMethodOf(*in.CollectionMethod)
	}
	if in.DueDate != nil {
		if *in.DueDate == "" {
			inv.DueDate = nil
		} else {
			d := Date(*in.DueDate)
			inv.DueDate = &d
		}
	}
	setNullableText(&inv.Description, in.Description)
	setNullableText(&inv.Memo, in.Memo)
	if in.NetTerms != nil {
		inv.NetTerms = *in.NetTerms
	}
	if in.Metadata != nil {
		inv.Metadata = MergeMetadata(inv.Metadata, in.Metadata)
	}
	CheckMetadataSize(f, "metadata", inv.Metadata)
}

func checkCollectionMethod(f *apierr.Fields, m *CollectionMethod) {
	checkOneOf(f, "collection_method", (*string)(m), string(ChargeAutomatically), string(RequestPayment), "auto_charge")
}

func checkInvoiceFields(f *apierr.Fields, due, description, memo *string, netTerms *int, metadata MetadataInput) {
	if due != nil && *due != "" {
		if _, err := time.Parse(time.DateOnly, *due); err != nil {
			f.Add("due_date", "must be a date in the form YYYY-MM-DD")
		}
	}
	checkText(f, "description", description, maxTextLength, false)
	checkText(f, "memo", memo, maxTextLength, false)
	if netTerms != nil && (*netTerms < 0 || *netTerms > maxNetTerms) {
		f.Add("net_terms", "must be between 0 and "+strconv.Itoa(maxNetTerms))
	}
	checkMetadata(f, "metadata", metadata)
}

// LineItemInput is the body of POST and PATCH
// /v1/invoices/{invoice_id}/line_items[/{id}]: a product and its quantity.
type LineItemInput struct {
	Product  *string `json:"product"`
	Quantity *int    `json:"quantity" range:"amount"`
}

// Validate checks a line item; create requires both members.
func (in *LineItemInput) Validate(create bool) error {
	var f apierr.Fields
	in.check(&f, "", create)
	return f.Err()
}

func (in *LineItemInput) check(f *apierr.Fields, prefix string, create bool) {
	if in.Product == nil && create {
		f.Add(prefix+"product", "is required")
	}
	checkText(f, prefix+"product", in.Product, 64, false)
	switch {
	case in.Quantity == nil:
		if create {
			f.Add(prefix+"quantity", "is required")
		}
	case *in.Quantity <= 0:
		f.Add(prefix+"quantity", "must be greater than 0")
	case *in.Quantity > maxLineItemQuantity:
		f.Add(prefix+"quantity", "must be at most "+strconv.Itoa(maxLineItemQuantity))
	}
}

// PayInvoiceInput is the body of POST /v1/invoices/{id}/pay: the payment
// method to charge (the payer's default one when absent), or paid out of
// band (settled outside the server: nothing is charged).
type PayInvoiceInput struct {
	PaymentMethod *string `json:"payment_method"`
	PaidOutOfBand *bool   `json:"paid_out_of_band"`
}

// Validate checks the input.
func (in *PayInvoiceInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "payment_method", in.PaymentMethod, 64, false)
	if in.PaymentMethod != nil && in.PaidOutOfBand != nil && *in.PaidOutOfBand {
		f.Add("payment_method", "cannot be given with paid_out_of_band")
	}
	return f.Err()
}
