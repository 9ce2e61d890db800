package models

import (
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

const maxPromotionCodes = 20

// CreateTransferInput is the body of POST /v1/transfers (API-DECISIONS §4).
// AuthorizationMode (`automatic` default, `manual`) leaves a successful
// card charge in requires_capture, as the real service's v2 transfers do.
type CreateTransferInput struct {
	Amount                     *int64             `json:"amount" range:"amount"`
	AccountID                  *string            `json:"account_id"`
	Currency                   *string            `json:"currency"`
	SourcePaymentMethodID      *string            `json:"source_payment_method_id"`
	DestinationPaymentMethodID *string            `json:"destination_payment_method_id"`
	Description                *string            `json:"description"`
	SellerID                   *string            `json:"seller_id"`
	Confirm                    *bool              `json:"confirm"`
	SonarSessionID             *string            `json:"sonar_session_id"`
	Reference                  *string            `json:"reference"`
	Metadata                   MetadataInput      `json:"metadata"`
	TransferFeePlanID          *string            `json:"transfer_fee_plan_id"`
	PromotionCodes             []string           `json:"promotion_codes"`
	AuthorizationMode          *AuthorizationMode `json:"authorization_mode"`
	// Source is the browser flow's form of the source (under a chk_sess_
	// secret): {payment_method_id}.
	Source *TransferSourceInput `json:"source"`
}

// TransferSourceInput is the browser flow's source.
type TransferSourceInput struct {
	PaymentMethodID *string `json:"payment_method_id"`
}

// TransferRequest is a validated create: ids parsed, defaults applied.
type TransferRequest struct {
	Amount                     int64
	AccountID                  uuid.UUID
	Currency                   string
	SourcePaymentMethodID      *uuid.UUID
	DestinationPaymentMethodID *uuid.UUID
	SellerID                   *uuid.UUID
	FeePlanID                  *uuid.UUID
	Confirm                    bool
	AuthorizationMode          AuthorizationMode
	PromotionCodes             []string
}

// Validate checks the create, every problem at once. A sonar_session_id on
// a payout is 400 (API-DECISIONS §4), before anything else.
func (in *CreateTransferInput) Validate() (*TransferRequest, error) {
	if in.SonarSessionID != nil && in.SourcePaymentMethodID == nil && in.DestinationPaymentMethodID != nil {
		return nil, apierr.BadRequest(apierr.CodeParameterInvalid, "sonar_session_id is not accepted on a payout", "sonar_session_id")
	}
	var f apierr.Fields
	r := &TransferRequest{Currency: "USD", AuthorizationMode: AuthorizationAutomatic, Confirm: in.Confirm != nil && *in.Confirm}
	r.Amount = checkAmount(&f, "amount", in.Amount, true)
	if id := parseID(&f, "account_id", in.AccountID, true); id != nil {
		r.AccountID = *id
	}
	r.SourcePaymentMethodID = parseID(&f, "source_payment_method_id", in.SourcePaymentMethodID, false)
	r.DestinationPaymentMethodID = parseID(&f, "destination_payment_method_id", in.DestinationPaymentMethodID, false)
	r.SellerID = parseID(&f, "seller_id", in.SellerID, false)
	r.FeePlanID = parseID(&f, "transfer_fee_plan_id", in.TransferFeePlanID, false)
	switch {
	case in.SourcePaymentMethodID == nil && in.DestinationPaymentMethodID == nil:
		f.Add("source_payment_method_id", "or destination_payment_method_id is required")
	case in.SourcePaymentMethodID != nil && in.DestinationPaymentMethodID != nil:
		f.Add("destination_payment_method_id", "is not accepted with source_payment_method_id")
	}
	if in.Currency != nil {
		if c := currencyOr(&f, "currency", in.Currency, "USD"); c != nil {
			r.Currency = *c
		}
	}
	if in.AuthorizationMode != nil && checkOneOf(&f, "authorization_mode", in.AuthorizationMode, AuthorizationModes...) {
		r.AuthorizationMode = *in.AuthorizationMode
	}
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkText(&f, "reference", in.Reference, 255, false)
	checkText(&f, "sonar_session_id", in.SonarSessionID, 255, false)
	checkMetadata(&f, "metadata", in.Metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(nil, in.Metadata))
	r.PromotionCodes = checkPromotionCodes(&f, in.PromotionCodes)
	return r, f.Err()
}

// UpdateTransferInput is the body of PATCH /v1/transfers/{id}.
type UpdateTransferInput struct {
	Description *string       `json:"description"`
	Metadata    MetadataInput `json:"metadata"`
}

// Validate checks an update.
func (in *UpdateTransferInput) Validate(current Metadata) error {
	var f apierr.Fields
	checkText(&f, "description", in.Description, maxTextLength, false)
	checkMetadata(&f, "metadata", in.Metadata)
	CheckMetadataSize(&f, "metadata", MergeMetadata(current, in.Metadata))
	return f.Err()
}

// CaptureTransferInput is the body of POST /v1/transfers/{id}/capture.
type CaptureTransferInput struct {
	AmountCapturedCents *int64 `json:"amount_captured_cents" range:"amount"`
}

// checkPromotionCodes checks the codes a payment applies (transfers and
// charge intents alike).
func checkPromotionCodes(f *apierr.Fields, codes []string) []string {
	if len(codes) > maxPromotionCodes {
		f.Add("promotion_codes", "must have at most "+strconv.Itoa(maxPromotionCodes)+" codes")
		return nil
	}
	for i, c := range codes {
		if strings.TrimSpace(c) == "" || len(c) > 100 {
			f.Add("promotion_codes."+strconv.Itoa(i), "must be a promotion code")
		}
	}
	return codes
}
