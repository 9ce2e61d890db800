package models

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// secondShapesGolden holds the JSON of the resources that render a second
// shape (a deleted customer, a redacted payment method) or members other
// than their fields' Go values (a customer identity verification's times,
// the merchant balance's dollars), as each rendered when its MarshalJSON
// was written by hand: their declared renderings must write the same
// bytes. UPDATE_GOLDEN=1 rewrites it.
const secondShapesGolden = "testdata/second_shapes.golden"

func TestSecondShapesRenderAsBefore(t *testing.T) {
	t.Parallel()
	at := func(sec int64) wire.Timestamp { return wire.At(time.Unix(sec, 0).UTC()) }
	id := uuid.MustParse("11111111-2222-4333-8444-555555555555")
	other := uuid.MustParse("99999999-8888-4777-8666-555555555555")
	name, phone := "Ada <&> \u2028", "+15550100"

	customer := Customer{Tenant: Tenant{MerchantID: other, Livemode: true}, ID: id, Name: &name, Email: "ada@example.com",
		Phone: &phone, Status: "active", Metadata: Metadata{"k": "v"}, Created: at(1700000000), Updated: at(1700000100)}
	deleted := customer
	deleted.Deleted = at(1700000200)

	card := &CardDetails{Brand: "visa", LastFour: "4242"}
	method := PaymentMethod{Tenant: Tenant{MerchantID: other}, ID: id, Type: "card", Status: "active", CustomerID: &other,
		Card: card, Created: at(1700000000), Updated: at(1700000100)}
	unowned := method
	unowned.CustomerID = nil

	civ := CustomerIdentityVerification{Tenant: Tenant{MerchantID: other, Livemode: true}, ID: id, Status: "incomplete",
		VerificationURL: "https://verify.example/x", Created: at(1700000000), Updated: at(1700000100), Subject: "+15550100"}
	concluded := civ
	concluded.CustomerID, concluded.Status = &other, "verified"
	concluded.Pending, concluded.Verified = UnixOrZero{at(1700000300)}, UnixOrZero{at(1700000400)}

	balance := MerchantBalance{Status: MerchantBalanceAvailable, MerchantID: other, Currency: "USD",
		InstantPayoutBalance: 123405, AvailableForPayout: -50, ReservedAmount: 0, PendingPayouts: 7, Source: "ledger"}
	moved := balance
	moved.LastUpdatedAt, moved.Livemode = wire.ISOTime{Time: time.Unix(1700000500, 0).UTC()}, true

	cases := []struct {
		name  string
		value any
	}{
		{"customer", &customer},
		{"customer value", customer},
		{"deleted customer", &deleted},
		{"deleted customer value", deleted},
		{"customers", []*Customer{&customer, &deleted}},
		{"payment method", &method},
		{"payment method value", method},
		{"payment method without customer", &unowned},
		{"redacted payment method", method.Redacted()},
		{"redacted payment method value", *method.Redacted()},
		{"customer identity verification", &civ},
		{"customer identity verification value", civ},
		{"concluded customer identity verification", &concluded},
		{"merchant balance", &balance},
		{"moved merchant balance", &moved},
	}
	var got strings.Builder
	for _, c := range cases {
		b, err := json.Marshal(c.value)
		require.NoError(t, err, c.name)
		fmt.Fprintf(&got, "== %s\n%s\n", c.name, b)
	}
	// A verification reads back from its rendering (an idempotent
	// replay answers the stored rendering).
	for _, v := range []CustomerIdentityVerification{civ, concluded} {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		var back CustomerIdentityVerification
		require.NoError(t, json.Unmarshal(b, &back))
		again, err := json.Marshal(back)
		require.NoError(t, err)
		require.JSONEq(t, string(b), string(again))
		fmt.Fprintf(&got, "== read back: id %s status %s customer %v pending %d verified %d failed %d livemode %t\n", back.ID, back.Status,
			back.CustomerID, back.PendingAt().Unix(), back.VerifiedAt().Unix(), back.FailedAt().Unix(), back.Livemode)
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		require.NoError(t, os.WriteFile(secondShapesGolden, []byte(got.String()), 0o644))
	}
	want, err := os.ReadFile(secondShapesGolden)
	require.NoError(t, err)
	require.Equal(t, string(want), got.String())
}
