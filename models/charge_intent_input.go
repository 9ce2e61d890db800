package models

import (
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
)

// CreateChargeIntentInput is the body of POST /v1/charge_intents
// (API-DECISIONS §4). ReferenceID (the id of the order or payment link the
// intent comes from, carried verbatim into events) and TransferFeePlanID
// (an explicit plan, as transfers take it) are this server's additions.
// Members the official SDKs send that this server has no use for
// (use_frame_sdk, fraud_signals, payment_method_options, revenue_split)
// are ignored like any unknown member.
type CreateChargeIntentInput struct {
	Amount            *int64                  `json:"amount"`
	Currency          *string                 `json:"currency"`
	Customer          *string                 `json:"customer"`
	Account           *string                 `json:"account"`
	PaymentMethod     *string                 `json:"payment_method"`
	Description       *string                 `json:"description"`
	Confirm           *bool                   `json:"confirm"`
	ReceiptEmail      *string                 `json:"receipt_email"`
	Metadata          MetadataInput           `json:"metadata"`
	AuthorizationMode *AuthorizationMode      `json:"authorization_mode"`
	CustomerData      *CustomerDataInput      `json:"customer_data"`
	PaymentMethodData *PaymentMethodDataInput `json:"payment_method_data"`
	Shipping          *AddressInput           `json:"shipping"`
	PromotionCodes    []string                `json:"promotion_codes"`
	SonarSessionID    *string                 `json:"sonar_session_id"`
	ReferenceID       *string                 `json:"reference_id"`
	TransferFeePlanID *string                 `json:"transfer_fee_plan_id"`
}

// CustomerDataInput creates the payer of a charge intent given neither a
// customer nor an account.
type CustomerDataInput struct {
	Name  *string `json:"name"`
	Email *string `json:"email"`
}

// PaymentMethodDataInput is a card given inline: it is created as a
// payment method (the payments area's one validation path), attached to
// the intent's payer when attach is true. The card number and CVC are
// never stored (the idempotency fingerprint is an HMAC of the parameters).
type PaymentMethodDataInput struct {
	Type       *PaymentMethodType `json:"type"`
	CardNumber *string            `json:"card_number"`
	ExpMonth   *FlexInt           `json:"exp_month"`
	ExpYear    *FlexInt           `json:"exp_year"`
	CVC        *string            `json:"cvc"`
	Billing    *AddressInput      `json:"billing"`
	Attach     *bool              `json:"attach"`
}

// PaymentMethodInput is the payment method create request the inline card
// stands for.
func (in *PaymentMethodDataInput) PaymentMethodInput() *CreatePaymentMethodInput {
	return &CreatePaymentMethodInput{Type: in.Type, CardNumber: in.CardNumber, ExpMonth: in.ExpMonth, ExpYear: in.ExpYear,
		CVC: in.CVC, Billing: in.Billing}
}

// ChargeIntentRequest is a checked create: ids parsed, defaults applied.
type ChargeIntentRequest struct {
	Amount            int64
	Currency          string
	CustomerID        *uuid.UUID
	AccountID         *uuid.UUID
	PaymentMethodID   *uuid.UUID
	FeePlanID         *uuid.UUID
	Confirm           bool
	AuthorizationMode AuthorizationMode
	PromotionCodes    []string
	Attach            bool
}

// Check reports every problem of a create into f (the inline customer and
// card are checked by their own areas, into the same f) and returns the
// parsed request.
func (in *CreateChargeIntentInput) Check(f *apierr.Fields) *ChargeIntentRequest {
	r := &ChargeIntentRequest{AuthorizationMode: AuthorizationAutomatic, Confirm: in.Confirm != nil && *in.Confirm}
	r.Amount = checkAmount(f, "amount", in.Amount, true)
	if c := checkChargeCurrency(f, "currency", in.Currency, true); c != nil {
		r.Currency = *c
	}
	r.CustomerID = parseOptionalID(f, "customer", in.Customer)
	r.AccountID = parseOptionalID(f, "account", in.Account)
	r.PaymentMethodID = parseOptionalID(f, "payment_method", in.PaymentMethod)
	r.FeePlanID = parseOptionalID(f, "transfer_fee_plan_id", in.TransferFeePlanID)
	if in.Customer != nil && in.Account != nil {
		f.Add("account", "cannot be given with customer: a charge intent has one payer")
	}
	if in.CustomerData != nil {
		if in.Customer != nil || in.Account != nil {
			f.Add("customer_data", "is not accepted with customer or account")
		}
	}
	if in.PaymentMethodData != nil {
		if in.PaymentMethod != nil {
			f.Add("payment_method_data", "is not accepted with payment_method")
		}
		if in.PaymentMethodData.Type != nil && *in.PaymentMethodData.Type != PaymentMethodCard {
			f.Add("payment_method_data.type", "must be card")
		}
		if r.Attach = in.PaymentMethodData.Attach != nil && *in.PaymentMethodData.Attach; r.Attach &&
			in.Customer == nil && in.Account == nil && in.CustomerData == nil {
			f.Add("payment_method_data.attach", "needs a customer, an account or customer_data to attach the card to")
		}
	}
	if r.Confirm && in.PaymentMethod == nil && in.PaymentMethodData == nil {
		f.Add("payment_method", "is required to confirm")
	}
	if in.AuthorizationMode != nil && checkOneOf(f, "authorization_mode", in.AuthorizationMode, AuthorizationModes...) {
		r.AuthorizationMode = *in.AuthorizationMode
	}
	if in.ReceiptEmail != nil {
		checkEmail(f, "receipt_email", in.ReceiptEmail)
	}
	if in.Shipping != nil {
		in.Shipping.validate(f, "shipping")
	}
	checkText(f, "description", in.Description, maxTextLength, false)
	checkText(f, "reference_id", in.ReferenceID, 255, false)
	checkText(f, "sonar_session_id", in.SonarSessionID, 255, false)
	checkMetadata(f, "metadata", in.Metadata)
	CheckMetadataSize(f, "metadata", MergeMetadata(nil, in.Metadata))
	r.PromotionCodes = checkPromotionCodes(f, in.PromotionCodes)
	return r
}

// CustomerInput is the customer create request customer_data stands for.
func (in *CustomerDataInput) CustomerInput() *CreateCustomerInput {
	return &CreateCustomerInput{Name: in.Name, Email: in.Email}
}

// UpdateChargeIntentInput is the body of PATCH /v1/charge_intents/{id}:
// the official SDKs' members. Amount, currency, the payer and the payment
// method change only before the intent is confirmed.
type UpdateChargeIntentInput struct {
	Amount        *int64        `json:"amount"`
	Currency      *string       `json:"currency"`
	Customer      *string       `json:"customer"`
	Account       *string       `json:"account"`
	PaymentMethod *string       `json:"payment_method"`
	Description   *string       `json:"description"`
	ReceiptEmail  *string       `json:"receipt_email"`
	Shipping      *AddressInput `json:"shipping"`
	Metadata      MetadataInput `json:"metadata"`
}

// ChargeIntentChange is a checked update: ids parsed.
type ChargeIntentChange struct {
	Amount          *int64
	Currency        *string
	CustomerID      *uuid.UUID
	AccountID       *uuid.UUID
	PaymentMethodID *uuid.UUID
}

// Check reports every problem of an update into f against the stored
// metadata.
func (in *UpdateChargeIntentInput) Check(f *apierr.Fields, current Metadata) *ChargeIntentChange {
	c := &ChargeIntentChange{Currency: checkChargeCurrency(f, "currency", in.Currency, false)}
	if in.Amount != nil {
		v := checkAmount(f, "amount", in.Amount, true)
		c.Amount = &v
	}
	c.CustomerID = parseOptionalID(f, "customer", in.Customer)
	c.AccountID = parseOptionalID(f, "account", in.Account)
	c.PaymentMethodID = parseOptionalID(f, "payment_method", in.PaymentMethod)
	if in.Customer != nil && in.Account != nil {
		f.Add("account", "cannot be given with customer: a charge intent has one payer")
	}
	if in.ReceiptEmail != nil {
		checkEmail(f, "receipt_email", in.ReceiptEmail)
	}
	if in.Shipping != nil {
		in.Shipping.validate(f, "shipping")
	}
	checkText(f, "description", in.Description, maxTextLength, false)
	checkMetadata(f, "metadata", in.Metadata)
	CheckMetadataSize(f, "metadata", MergeMetadata(current, in.Metadata))
	return c
}

// ConfirmChargeIntentInput is the body of POST .../confirm: a payment
// method to charge instead of the intent's own, a shipping address, and
// the intent's client_secret when a publishable key confirms (the official
// mobile SDKs send it in the body, with use_frame_sdk, which is ignored).
type ConfirmChargeIntentInput struct {
	PaymentMethod *string       `json:"payment_method"`
	Shipping      *AddressInput `json:"shipping"`
	ClientSecret  *string       `json:"client_secret"`
}

// Check reports every problem of a confirm into f.
func (in *ConfirmChargeIntentInput) Check(f *apierr.Fields) *uuid.UUID {
	if in.Shipping != nil {
		in.Shipping.validate(f, "shipping")
	}
	checkText(f, "client_secret", in.ClientSecret, 255, false)
	return parseOptionalID(f, "payment_method", in.PaymentMethod)
}

// CaptureChargeIntentInput is the body of POST .../capture.
type CaptureChargeIntentInput struct {
	AmountCapturedCents *int64 `json:"amount_captured_cents" range:"amount"`
}

// checkAmount reads an amount in minor units: greater than 0 and at
// most MaxAmount (spec doc 2 §8); 0 when absent or refused.
func checkAmount(f *apierr.Fields, path string, v *int64, required bool) int64 {
	switch {
	case v == nil:
		if required {
			f.Add(path, "is required")
		}
	case *v <= 0:
		f.Add(path, "must be greater than 0")
	case *v > MaxAmount:
		f.Add(path, "must be at most "+strconv.FormatInt(MaxAmount, 10))
	default:
		return *v
	}
	return 0
}

// checkChargeCurrency reads a three-letter currency in any case; charge
// intents carry it lowercase (spec doc 2 §2.9).
func checkChargeCurrency(f *apierr.Fields, path string, v *string, required bool) *string {
	if v == nil {
		if required {
			f.Add(path, "is required")
		}
		return nil
	}
	if !checkCurrency(f, path, v) {
		return nil
	}
	c := strings.ToLower(*v)
	return &c
}

// parseOptionalID reads an optional id member (parseID).
func parseOptionalID(f *apierr.Fields, path string, v *string) *uuid.UUID {
	return parseID(f, path, v, false)
}

// parseID reads an id member: nil when absent (a problem when required),
// nil with a problem when it does not parse.
func parseID(f *apierr.Fields, path string, v *string, required bool) *uuid.UUID {
	if v == nil {
		if required {
			f.Add(path, "is required")
		}
		return nil
	}
	id, ok := ids.Parse(*v)
	if !ok {
		f.Add(path, "is not a valid id")
		return nil
	}
	return &id
}
