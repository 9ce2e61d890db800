package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type invoiceKind struct{}

func (invoiceKind) objectName() string { return "invoice" }

// Invoice is a bill to a customer or an account (spec doc 2 §2.5). Its
// total is always the sum of its lines (the database checks it at every
// commit); it is numbered when issued, from a gap-free sequence per
// merchant and mode. Its total is sent as amount too: the Node SDK types a
// usage invoice's answer (BillingInvoice) with amount.
type Invoice struct {
	bun.BaseModel `bun:"table:invoices,alias:inv"`
	Tenant

	ID               uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[invoiceKind] `bun:"-" json:"object"`
	Number           *int64              `bun:"number" json:"-"`
	InvoiceNumber    *string             `bun:"-" json:"invoice_number"`
	Total            int64               `bun:"total" json:"total" sdk:"amount"`
	Currency         string              `bun:"currency" json:"currency"`
	Status           InvoiceStatus       `bun:"status" json:"status"`
	CollectionMethod CollectionMethod    `bun:"collection_method" json:"collection_method"`
	SubscriptionID   *uuid.UUID          `bun:"subscription_id,type:uuid" json:"subscription_id"`
	BillingReason    *BillingReason      `bun:"billing_reason" json:"billing_reason"`
	NetTerms         int                 `bun:"net_terms" json:"net_terms"`
	DueDate          *Date               `bun:"due_date,type:date" json:"due_date"`
	Description      *string             `bun:"description" json:"description"`
	Memo             *string             `bun:"memo" json:"memo"`
	CustomerID       *uuid.UUID          `bun:"customer_id,type:uuid" json:"customer_id"`
	Customer         *PayerRef           `bun:"-" json:"customer"`
	AccountID        *uuid.UUID          `bun:"account_id,type:uuid" json:"account_id"`
	Account          *PayerRef           `bun:"-" json:"account"`
	LineItems        []*InvoiceLineItem  `bun:"-" json:"line_items"`
	// ChargeID is the latest charge attempted for the invoice: the one
	// that paid it once it is paid.
	ChargeID              *uuid.UUID      `bun:"charge_id,type:uuid" json:"charge"`
	AttemptCount          int             `bun:"attempt_count" json:"attempt_count"`
	LastPaymentError      *PaymentError   `bun:"-" json:"last_payment_error"`
	ErrorCode             *string         `bun:"last_payment_error_code" json:"-"`
	ErrorMessage          *string         `bun:"last_payment_error_message" json:"-"`
	IssuedAt              *wire.Timestamp `bun:"issued_at,type:timestamptz" json:"issued_at"`
	PaidAt                *wire.Timestamp `bun:"paid_at,type:timestamptz" json:"paid_at"`
	VoidedAt              *wire.Timestamp `bun:"voided_at,type:timestamptz" json:"voided_at"`
	MarkedUncollectibleAt *wire.Timestamp `bun:"marked_uncollectible_at,type:timestamptz" json:"marked_uncollectible_at"`
	Metadata              Metadata        `bun:"metadata,type:jsonb" json:"metadata"`
	Created               wire.Timestamp  `bun:"created,type:timestamptz" json:"created"`
	Updated               wire.Timestamp  `bun:"updated,type:timestamptz" json:"updated"`

	// OverdueAt is when the invoice passed its due date unpaid and
	// invoice.overdue was sent (once).
	OverdueAt *wire.Timestamp `bun:"overdue_at,type:timestamptz" json:"overdue_at"`
	// TestClockID is the payer's test clock, whose time the invoice's
	// dates and overdue notice follow.
	TestClockID *uuid.UUID `bun:"test_clock_id,type:uuid" json:"-"`

	// What a read brings in the invoice's statement (PayerColumns): its
	// lines, oldest first, and its payer, from which Customer or Account
	// is derived.
	LineItemsJSON json.RawMessage `bun:"line_items_json,scanonly" json:"-"`
	PayerCustomer *Customer       `bun:"-" json:"-"`
	CustomerJSON  json.RawMessage `bun:"customer_json,scanonly" json:"-"`
	PayerAccount  *Account        `bun:"-" json:"-"`
	AccountJSON   json.RawMessage `bun:"account_json,scanonly" json:"-"`
}

// PayerRef is the short form of an invoice's customer or account, derived
// from the payer's model: {id, object, name} as the official SDKs read it,
// with the members the PHP SDK's customer model requires of an invoice's
// customer (email, livemode, created, updated; docs/decisions.md).
type PayerRef struct {
	ID       uuid.UUID      `json:"id"`
	Object   string         `json:"object"`
	Name     *string        `json:"name"`
	Email    *string        `json:"email"`
	Livemode bool           `json:"livemode"`
	Created  wire.Timestamp `json:"created"`
	Updated  wire.Timestamp `json:"updated"`
}

// CustomerRefColumns and AccountRefColumns are the columns of a payer (a
// customer or an account) its short form shows, besides its id.
var (
	CustomerRefColumns = []string{"name", "email", "livemode", "created", "updated"}
	AccountRefColumns  = []string{"profile", "livemode", "created", "updated"}
)

// Ref is the customer's short form; nil for none.
func (c *Customer) Ref() *PayerRef {
	if c == nil {
		return nil
	}
	email := c.Email
	return &PayerRef{ID: c.ID, Object: customerKind{}.objectName(), Name: c.Name, Email: &email,
		Livemode: c.Livemode, Created: c.Created, Updated: c.Updated}
}

// Ref is the account's short form, named after its business's legal
// name, else its individual's first and last names, and reached at the
// email of the same; nil for none.
func (a *Account) Ref() *PayerRef {
	if a == nil {
		return nil
	}
	return &PayerRef{ID: a.ID, Object: accountKind{}.objectName(), Name: a.Profile.displayName(),
		Email: a.Profile.contactEmail(), Livemode: a.Livemode, Created: a.Created, Updated: a.Updated}
}

// contactEmail is the email an account's short form shows: its
// business's, else its individual's.
func (p *Profile) contactEmail() *string {
	if p.Business != nil && p.Business.Email != nil {
		return p.Business.Email
	}
	if p.Individual != nil {
		return p.Individual.Email
	}
	return nil
}

// displayName is the name an account's short form shows.
func (p *Profile) displayName() *string {
	if p.Business != nil && p.Business.LegalBusinessName != nil {
		return p.Business.LegalBusinessName
	}
	if p.Individual == nil || p.Individual.Name == nil {
		return nil
	}
	var parts []string
	for _, s := range []*string{p.Individual.Name.FirstName, p.Individual.Name.LastName} {
		if s != nil {
			parts = append(parts, *s)
		}
	}
	if name := strings.Join(parts, " "); name != "" {
		return &name
	}
	return nil
}

// PaymentError is the decline of an invoice's latest charge.
type PaymentError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// InvoiceNumberOf renders the number n of an issued invoice.
func InvoiceNumberOf(n int64) string { return fmt.Sprintf("INV-%06d", n) }

// Derive sets the members computed from the stored ones.
func (inv *Invoice) Derive() {
	inv.InvoiceNumber = nil
	if inv.Number != nil {
		s := InvoiceNumberOf(*inv.Number)
		inv.InvoiceNumber = &s
	}
	inv.LastPaymentError = nil
	if inv.ErrorCode != nil {
		inv.LastPaymentError = &PaymentError{Code: *inv.ErrorCode}
		if inv.ErrorMessage != nil {
			inv.LastPaymentError.Message = *inv.ErrorMessage
		}
	}
	if inv.LineItems == nil {
		inv.LineItems = []*InvoiceLineItem{}
	}
	for _, li := range inv.LineItems {
		li.Derive()
	}
	inv.Customer, inv.Account = inv.PayerCustomer.Ref(), inv.PayerAccount.Ref()
	if inv.Metadata == nil {
		inv.Metadata = Metadata{}
	}
}

// Overdue says whether the invoice is open past its due date on the day
// of now (UTC).
func (inv *Invoice) Overdue(now time.Time) bool {
	return inv.Status == InvoiceOpen && inv.DueDate != nil && string(*inv.DueDate) < now.UTC().Format(time.DateOnly)
}

type invoiceLineItemKind struct{}

func (invoiceLineItemKind) objectName() string { return "invoice_line_item" }

// InvoiceLineItem is one line of an invoice: a product, its quantity and
// its unit price when it was added (spec doc 2 §2.5).
type InvoiceLineItem struct {
	bun.BaseModel `bun:"table:invoice_line_items,alias:li"`
	Tenant

	ID                 uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object             Object[invoiceLineItemKind] `bun:"-" json:"object"`
	InvoiceID          uuid.UUID                   `bun:"invoice_id,type:uuid" json:"invoice"`
	ProductID          uuid.UUID                   `bun:"product_id,type:uuid" json:"product"`
	Description        string                      `bun:"description" json:"description"`
	Quantity           int                         `bun:"quantity" json:"quantity"`
	UnitAmountCents    int64                       `bun:"unit_amount_cents" json:"unit_amount_cents"`
	UnitAmountCurrency string                      `bun:"unit_amount_currency" json:"unit_amount_currency"`
	// UnitAmount is unit_amount_cents under the name the Ruby SDK's line
	// item reads (docs/decisions.md).
	UnitAmount int64 `bun:"-" json:"unit_amount"`
	Amount     int64 `bun:"-" json:"amount"`
	// Kind is what the line bills: item (a product added to the
	// invoice), subscription (a period), proration_credit and
	// proration_charge (a swap's lines), balance (credit applied).
	Kind LineItemKind `bun:"kind" json:"kind"`
	// PeriodStart and PeriodEnd are the window a subscription's line
	// bills; Proportion the share of the period a proration line covers.
	PeriodStart *wire.Timestamp `bun:"period_start,type:timestamptz" json:"period_start"`
	PeriodEnd   *wire.Timestamp `bun:"period_end,type:timestamptz" json:"period_end"`
	Proportion  *string         `bun:"proportion" json:"proportion"`
	Created     wire.Timestamp  `bun:"created,type:timestamptz" json:"created"`
	Updated     wire.Timestamp  `bun:"updated,type:timestamptz" json:"updated"`

	// A usage line's members (kind usage only, absent from other lines):
	// the event name it bills, its aggregated usage and the credits
	// applied to it (units of usage, decimal strings) and its meter.
	EventName      *string    `bun:"event_name" json:"event_name,omitempty"`
	Usage          *string    `bun:"usage,type:numeric" json:"usage,omitempty"`
	CreditsApplied *string    `bun:"credits_applied,type:numeric" json:"credits_applied,omitempty"`
	MeterID        *uuid.UUID `bun:"meter_id,type:uuid" json:"meter_id,omitempty"`
}

// Derive sets the line's amount and its unit_amount.
func (li *InvoiceLineItem) Derive() {
	li.Amount = int64(li.Quantity) * li.UnitAmountCents
	li.UnitAmount = li.UnitAmountCents
}

// Date is a calendar date, YYYY-MM-DD on the wire and a date column in
// the database.
type Date string

// Scan reads a date column.
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d = Date(v.Format(time.DateOnly))
	case string:
		*d = Date(v[:min(len(v), 10)])
	case []byte:
		*d = Date(v[:min(len(v), 10)])
	default:
		return fmt.Errorf("models: date of type %T", src)
	}
	return nil
}

// Value writes the date.
func (d Date) Value() (driver.Value, error) { return string(d), nil }
