package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type productKind struct{}

func (productKind) objectName() string { return "product" }

// Product is something a merchant sells (spec doc 2 §2.1).
type Product struct {
	bun.BaseModel `bun:"table:products,alias:pr"`
	Tenant

	ID             uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[productKind] `bun:"-" json:"object"`
	Name           string              `bun:"name" json:"name"`
	Description    *string             `bun:"description" json:"description"`
	URL            *string             `bun:"url" json:"url"`
	Shippable      bool                `bun:"shippable" json:"shippable"`
	PurchaseType   PurchaseType        `bun:"purchase_type" json:"purchase_type"`
	Recurring      *Recurring          `bun:"recurring,type:jsonb" json:"recurring"`
	DefaultPrice   int64               `bun:"default_price" json:"default_price"`
	BillingCredits *int64              `bun:"billing_credits" json:"-"`
	Active         bool                `bun:"active" json:"active"`
	Image          *string             `bun:"image" json:"image"`
	Metadata       Metadata            `bun:"metadata,type:jsonb" json:"metadata"`
	Created        wire.Timestamp      `bun:"created,type:timestamptz" json:"created"`
	Updated        wire.Timestamp      `bun:"updated,type:timestamptz" json:"updated"`
}

// Recurring is the billing period of a recurring product: `interval` is
// the recurring_interval it was created with, `interval_count` the number
// of months it spans for the multi-month intervals (1 otherwise).
type Recurring struct {
	Interval      RecurringInterval `json:"interval"`
	IntervalCount int               `json:"interval_count"`
}

// RecurringOf is the billing period of interval.
func RecurringOf(interval RecurringInterval) *Recurring {
	switch interval {
	case IntervalEvery3Months:
		return &Recurring{Interval: interval, IntervalCount: 3}
	case IntervalEvery6Months:
		return &Recurring{Interval: interval, IntervalCount: 6}
	}
	return &Recurring{Interval: interval, IntervalCount: 1}
}

// ProductInput is the body of POST /v1/products and PATCH
// /v1/products/{id} ("same optional fields as create"). On update, members
// omitted or null stay.
type ProductInput struct {
	Name              *string            `json:"name"`
	Description       *string            `json:"description"`
	DefaultPrice      *int64             `json:"default_price" range:"amount"`
	PurchaseType      *PurchaseType      `json:"purchase_type"`
	RecurringInterval *RecurringInterval `json:"recurring_interval"`
	Shippable         *bool              `json:"shippable"`
	URL               *string            `json:"url"`
	BillingCredits    *int64             `json:"billing_credits" range:"amount"`
	Active            *bool              `json:"active"`
	Image             *string            `json:"image"`
	Metadata          MetadataInput      `json:"metadata"`
}

var recurringIntervals = []string{"daily", "weekly", "monthly", "yearly", "every_3_months", "every_6_months"}

// Validate checks the input; create requires the name.
func (in *ProductInput) Validate(create bool) *apierr.Fields {
	var f apierr.Fields
	checkText(&f, "name", in.Name, 250, create)
	checkText(&f, "description", in.Description, maxTextLength, false)
	if in.URL != nil && *in.URL != "" {
		checkURL(&f, "url", in.URL)
	}
	if in.Image != nil && *in.Image != "" {
		checkURL(&f, "image", in.Image)
	}
	if in.DefaultPrice != nil && *in.DefaultPrice < 0 {
		f.Add("default_price", "must be at least 0")
	}
	if in.BillingCredits != nil && *in.BillingCredits < 0 {
		f.Add("billing_credits", "must be at least 0")
	}
	checkOneOf(&f, "purchase_type", (*string)(in.PurchaseType), "one_time", "recurring")
	checkOneOf(&f, "recurring_interval", (*string)(in.RecurringInterval), recurringIntervals...)
	checkMetadata(&f, "metadata", in.Metadata)
	return &f
}

// ApplyTo sets the members in carries on p and checks that the result is
// consistent: a recurring product has an interval, a one-time one none.
func (in *ProductInput) ApplyTo(p *Product, f *apierr.Fields) {
	if in.Name != nil {
		p.Name = *in.Name
	}
	setNullableText(&p.Description, in.Description)
	setNullableText(&p.URL, in.URL)
	setNullableText(&p.Image, in.Image)
	if in.DefaultPrice != nil {
		p.DefaultPrice = *in.DefaultPrice
	}
	if in.Shippable != nil {
		p.Shippable = *in.Shippable
	}
	if in.Active != nil {
		p.Active = *in.Active
	}
	if in.BillingCredits != nil {
		v := *in.BillingCredits
		p.BillingCredits = &v
	}
	if in.PurchaseType != nil {
		p.PurchaseType = *in.PurchaseType
	}
	if in.Metadata != nil {
		p.Metadata = MergeMetadata(p.Metadata, in.Metadata)
	}
	CheckMetadataSize(f, "metadata", p.Metadata)
	switch p.PurchaseType {
	case PurchaseRecurring:
		if in.RecurringInterval != nil {
			p.Recurring = RecurringOf(*in.RecurringInterval)
		}
		if p.Recurring == nil && !f.Has("recurring_interval") {
			f.Add("recurring_interval", "is required when purchase_type is recurring")
		}
	default:
		if in.RecurringInterval != nil {
			f.Add("recurring_interval", "is only allowed when purchase_type is recurring")
		}
		p.Recurring = nil
	}
}

// setNullableText sets *dst from v: nil leaves it, "" clears it.
func setNullableText(dst **string, v *string) {
	switch {
	case v == nil:
	case *v == "":
		*dst = nil
	default:
		s := *v
		*dst = &s
	}
}
