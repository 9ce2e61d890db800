package models

import (
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CreateSubscriptionInput is the body of POST /v1/subscriptions
// (API-DECISIONS §4): exactly one payer, a recurring product, the
// currency, and how swaps are prorated (create_prorations by default).
type CreateSubscriptionInput struct {
	Customer             *string            `json:"customer"`
	Account              *string            `json:"account"`
	Product              *string            `json:"product"`
	Currency             *string            `json:"currency"`
	DefaultPaymentMethod *string            `json:"default_payment_method"`
	Description          *string            `json:"description"`
	ProrationBehavior    *ProrationBehavior `json:"proration_behavior"`
	Metadata             MetadataInput      `json:"metadata"`
}

var prorationBehaviors = []string{string(CreateProrations), string(AlwaysInvoice), string(ProrateNone)}

// Validate checks the input, every problem at once.
func (in *CreateSubscriptionInput) Validate() error {
	var f apierr.Fields
	checkOnePayer(&f, in.Customer, in.Account, payerRequired)
	checkText(&f, "product", in.Product, 64, true)
	if in.Currency == nil {
		f.Add("currency", "is required")
	}
	checkCurrency(&f, "currency", in.Currency)
	checkText(&f, "default_payment_method", in.DefaultPaymentMethod, 64, false)
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkOneOf(&f, "proration_behavior", (*string)(in.ProrationBehavior), prorationBehaviors...)
	checkMetadata(&f, "metadata", in.Metadata)
	if len(in.Metadata) > 20 {
		f.Add("metadata", "must have at most 20 keys")
	}
	return f.Err()
}

// CurrencyOf is the currency, lowercase.
func (in *CreateSubscriptionInput) CurrencyOf() string { return strings.ToLower(*in.Currency) }

// BehaviorOf is the proration behaviour asked, create_prorations when
// none is.
func (in *CreateSubscriptionInput) BehaviorOf() ProrationBehavior {
	if in.ProrationBehavior == nil {
		return CreateProrations
	}
	return *in.ProrationBehavior
}

// UpdateSubscriptionInput is the body of PATCH /v1/subscriptions/{id}
// (spec doc 2 §4.4): a new product (a swap), the payment method, the
// description, the metadata. proration_behavior is accepted and ignored:
// it is fixed at creation (rule 1).
type UpdateSubscriptionInput struct {
	Product              *string            `json:"product"`
	DefaultPaymentMethod *string            `json:"default_payment_method"`
	Description          *string            `json:"description"`
	Metadata             MetadataInput      `json:"metadata"`
	ProrationBehavior    *ProrationBehavior `json:"proration_behavior"`
}

// Validate checks the input, every problem at once.
func (in *UpdateSubscriptionInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "product", in.Product, 64, false)
	checkText(&f, "default_payment_method", in.DefaultPaymentMethod, 64, false)
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}

// PauseSubscriptionInput is the optional body of POST
// /v1/subscriptions/{id}/pause: when to resume by itself (Unix seconds).
type PauseSubscriptionInput struct {
	ResumeAt *Timestamp `json:"resume_at"`
}

// Validate checks the input.
func (in *PauseSubscriptionInput) Validate() error {
	if in != nil && in.ResumeAt != nil && in.ResumeAt.Unix() <= 0 {
		return apierr.FieldError("resume_at", "must be a Unix timestamp")
	}
	return nil
}
