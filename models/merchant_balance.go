package models

import (
	"bytes"
	"strconv"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// MerchantBalance is GET /v1/merchant_balance as the real service's SDK
// reads it: the instant-payout balance, derived from the ledger at read
// time, never stored. The SDK reads its amounts as dollars, so REST renders
// them as decimal numbers with two places (exact: written from the cents,
// never through a float); GraphQL gives the cents.
type MerchantBalance struct {
	Status     string
	MerchantID uuid.UUID
	Currency   string
	// InstantPayoutBalance is what the instant-payout balance holds
	// (dots_balance in the SDK's shape), in cents.
	InstantPayoutBalance int64
	// AvailableForPayout is what a payout may draw now, in cents.
	AvailableForPayout int64
	// ReservedAmount is held back from payouts (none in this server).
	ReservedAmount int64
	// PendingPayouts is the sum of payouts still in flight, in cents
	// (already taken from the balance).
	PendingPayouts int64
	// LastUpdatedAt is when the balance last moved (zero: never).
	LastUpdatedAt wire.ISOTime
	Source        string
	Livemode      bool
}

// MerchantBalanceWire declares the members MarshalJSON writes, in its
// order, for the REST contract: the amounts are JSON numbers (declared
// float64 for that alone: MarshalJSON writes them exactly from the cents,
// never through a float); TestMerchantBalanceWireDeclaresWhatIsWritten
// holds the two together.
type MerchantBalanceWire struct {
	Object             Object[merchantBalanceKind] `json:"object"`
	Status             MerchantBalanceStatus       `json:"status"`
	MerchantID         uuid.UUID                   `json:"merchant_id"`
	Currency           string                      `json:"currency"`
	DotsBalance        float64                     `json:"dots_balance"`
	AvailableForPayout float64                     `json:"available_for_payout"`
	ReservedAmount     float64                     `json:"reserved_amount"`
	PendingPayouts     float64                     `json:"pending_payouts"`
	LastUpdatedAt      wire.ISOTime                `json:"last_updated_at"`
	Source             string                      `json:"source"`
	Livemode           bool                        `json:"livemode"`
}

// merchantBalanceKind names the merchant balance object.
type merchantBalanceKind struct{}

func (merchantBalanceKind) objectName() string { return "merchant_balance" }

// MarshalJSON renders the SDK's shape.
func (b *MerchantBalance) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"object":"merchant_balance","status":`)
	buf.WriteString(strconv.Quote(b.Status))
	// reason_code is left out: the balance reports no reason (the SDK
	// declares it optional, not nullable).
	buf.WriteString(`,"merchant_id":"`)
	buf.WriteString(b.MerchantID.String())
	buf.WriteString(`","currency":`)
	buf.WriteString(strconv.Quote(b.Currency))
	for _, m := range []struct {
		name  string
		cents int64
	}{{"dots_balance", b.InstantPayoutBalance}, {"available_for_payout", b.AvailableForPayout},
		{"reserved_amount", b.ReservedAmount}, {"pending_payouts", b.PendingPayouts}} {
		buf.WriteString(`,"` + m.name + `":`)
		buf.WriteString(Dollars(m.cents))
	}
	buf.WriteString(`,"last_updated_at":`)
	last, err := b.LastUpdatedAt.MarshalJSON()
	if err != nil {
		return nil, err
	}
	buf.Write(last)
	buf.WriteString(`,"source":`)
	buf.WriteString(strconv.Quote(b.Source))
	buf.WriteString(`,"livemode":`)
	buf.WriteString(strconv.FormatBool(b.Livemode))
	buf.WriteByte('}')
	return buf.Bytes(), nil
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
