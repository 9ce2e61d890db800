package models

import (
	"io"
	"strconv"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// MerchantBalance is GET /v1/merchant_balance as the real service's SDK
// reads it: the instant-payout balance, derived from the ledger at read
// time, never stored. The SDK reads its amounts as dollars, so REST renders
// them as decimal numbers with two places (CentsAsDollars: exact, written
// from the cents, never through a float); GraphQL gives the cents.
// reason_code is left out: the balance reports no reason (the SDK declares
// it optional, not nullable).
type MerchantBalance struct {
	Object     Object[merchantBalanceKind] `json:"object"`
	Status     MerchantBalanceStatus       `json:"status"`
	MerchantID uuid.UUID                   `json:"merchant_id"`
	Currency   string                      `json:"currency"`
	// InstantPayoutBalance is what the instant-payout balance holds
	// (dots_balance in the SDK's shape).
	InstantPayoutBalance CentsAsDollars `json:"dots_balance"`
	// AvailableForPayout is what a payout may draw now.
	AvailableForPayout CentsAsDollars `json:"available_for_payout"`
	// ReservedAmount is held back from payouts (none in this server).
	ReservedAmount CentsAsDollars `json:"reserved_amount"`
	// PendingPayouts is the sum of payouts still in flight (already taken
	// from the balance).
	PendingPayouts CentsAsDollars `json:"pending_payouts"`
	// LastUpdatedAt is when the balance last moved (zero: never).
	LastUpdatedAt wire.ISOTime `json:"last_updated_at"`
	Source        string       `json:"source"`
	Livemode      bool         `json:"livemode"`
}

// merchantBalanceKind names the merchant balance object.
type merchantBalanceKind struct{}

func (merchantBalanceKind) objectName() string { return "merchant_balance" }

// CentsAsDollars is an amount in cents that renders as a JSON number of
// dollars with two places (Dollars).
type CentsAsDollars int64

// MarshalJSON writes the dollars.
func (c CentsAsDollars) MarshalJSON() ([]byte, error) { return []byte(Dollars(int64(c))), nil }

// MarshalGQL writes the cents: GraphQL gives amounts in cents (an Int).
func (c CentsAsDollars) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.FormatInt(int64(c), 10))
}

// UnmarshalGQL reads cents, as an Int is read.
func (c *CentsAsDollars) UnmarshalGQL(v any) error {
	var n FlexInt
	err := n.UnmarshalGQL(v)
	*c = CentsAsDollars(n)
	return err
}

// Dollars writes cents as a decimal number of dollars with two places
// ("1234.05", "-0.50"), exactly.
func Dollars(cents int64) string {
	sign := ""
	u := uint64(cents)
	if cents < 0 {
		sign, u = "-", uint64(-(cents+1))+1
	}
	frac := strconv.FormatUint(u%100+100, 10)[1:]
	return sign + strconv.FormatUint(u/100, 10) + "." + frac
}
