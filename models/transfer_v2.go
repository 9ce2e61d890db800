package models

import (
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// TransferV2 is GET /v2/transfers/{id}: the same transfer in the real
// service's v2 shape (amounts as {value, currency}, the charge's progress
// under payment), polled for the final status after 3-D Secure.
type TransferV2 struct {
	ID          uuid.UUID            `json:"id"`
	Object      Object[transferKind] `json:"object"`
	Type        string               `json:"type"`
	Status      TransferStatus       `json:"status"`
	Description *string              `json:"description"`
	Amount      MoneyV2              `json:"amount"`
	Fee         MoneyV2              `json:"fee"`
	NetAmount   MoneyV2              `json:"net_amount"`
	Livemode    bool                 `json:"livemode"`
	Created     wire.Timestamp       `json:"created"`
	Reference   *string              `json:"reference"`
	Metadata    Metadata             `json:"metadata"`
	Source      *EndpointV2          `json:"source"`
	Destination *EndpointV2          `json:"destination"`
	Payment     *PaymentV2           `json:"payment"`
	Payout      *PaymentV2           `json:"payout"`
	NextAction  *NextAction          `json:"next_action"`
}

// MoneyV2 is an amount with its currency.
type MoneyV2 struct {
	Value    int64  `json:"value"`
	Currency string `json:"currency"`
}

// EndpointV2 is a transfer's source or destination.
type EndpointV2 struct {
	AccountID       uuid.UUID      `json:"account_id"`
	PaymentMethodID *uuid.UUID     `json:"payment_method_id"`
	Rail            string         `json:"rail"`
	PaymentMethod   *PaymentMethod `json:"payment_method"`
}

// PaymentV2 is a charge's progress.
type PaymentV2 struct {
	Status            TransferStatus    `json:"status"`
	AuthorizationMode AuthorizationMode `json:"authorization_mode"`
	FailureCode       *string           `json:"failure_code"`
	FailureReason     *string           `json:"failure_reason"`
	AmountAuthorized  MoneyV2           `json:"amount_authorized"`
	AmountCaptured    MoneyV2           `json:"amount_captured"`
	AmountRefunded    MoneyV2           `json:"amount_refunded"`
}

// TransferV2Of renders t in the v2 shape.
func TransferV2Of(t *Transfer) *TransferV2 {
	m := func(v int64) MoneyV2 { return MoneyV2{Value: v, Currency: t.Currency} }
	rail := "card"
	if t.BillableEventType == BillableChargeACH || t.BillableEventType == BillablePayoutACH {
		rail = "ach"
	}
	v := &TransferV2{ID: t.ID, Type: strings.TrimPrefix(t.BillableEventType, "transfer."), Status: t.Status,
		Description: t.Description, Amount: m(t.Amount), Fee: m(t.TotalFees), NetAmount: m(t.NetAmount),
		Livemode: t.Livemode, Created: t.Created, Reference: t.Reference, Metadata: t.Metadata, NextAction: t.NextAction}
	if t.IsCharge() {
		v.Source = &EndpointV2{AccountID: t.AccountID, PaymentMethodID: t.SourcePaymentMethodID, Rail: rail,
			PaymentMethod: t.SourcePaymentMethod}
		authorized := int64(0)
		if t.Status == TransferRequiresCapture || t.Status == TransferSucceeded || t.Status == TransferRefunded {
			authorized = t.Amount
		}
		v.Payment = &PaymentV2{Status: t.Status, AuthorizationMode: t.AuthorizationMode, FailureCode: t.FailureCode,
			FailureReason: t.FailureReason, AmountAuthorized: m(authorized), AmountCaptured: m(t.AmountCaptured),
			AmountRefunded: m(t.AmountRefunded)}
	} else {
		v.Destination = &EndpointV2{AccountID: t.AccountID, PaymentMethodID: t.DestinationPaymentMethodID, Rail: rail,
			PaymentMethod: t.DestinationPaymentMethod}
	}
	return v
}
