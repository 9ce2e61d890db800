package graph_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// BillingMeter.meteringEvents is a page edge whose pages are REST's list
// of the meter's events (its event name), with the payer filter too.
func TestMeterEventsArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	other := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	var meter, name string
	for i := range 3 {
		name = fmt.Sprintf("calls%d", i)
		meter = f.sk.PriceMeter(name, "", "sum").ID.String()
		for j := range 3 {
			f.sk.CreateMeteringEvent(testenv.MeteringEvent(name, fmt.Sprintf("r%d", j), cu).At("2026-01-10T08:00:00Z"))
			f.env.Clock.Advance(time.Minute)
		}
	}
	f.sk.CreateMeteringEvent(testenv.MeteringEvent(name, "other", other).At("2026-01-10T08:00:00Z"))

	requireChildPages(t, f, "billingMeters", "meteringEvents", meter, restIDs(t, f.sk, "/v1/billing/metering_events?event_name="+name))

	g := gql(t, f.sk, `query($id: ID!, $cu: ID!) { billingMeter(id: $id) { meteringEvents(customer: $cu) { edges { node { id } } } } }`,
		map[string]any{"id": meter, "cu": other})
	got := []any{}
	for _, e := range list(obj(obj(g.Data["billingMeter"])["meteringEvents"])["edges"]) {
		got = append(got, obj(obj(e)["node"])["id"])
	}
	require.Equal(t, restIDs(t, f.sk, "/v1/billing/metering_events?event_name="+name+"&customer="+other), got)
}

// Coupon.discounts and PromotionCode.discounts are page edges: three
// coupons, each with a code redeemed by three customers.
func TestCouponDiscountsArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var coupon, code string
	var customers []string
	for i := range 3 {
		coupon = f.sk.CreateCoupon(testenv.Coupon().WithPercentOff("50")).ID.String()
		code = f.sk.CreatePromotionCode(testenv.PromotionCode(coupon).WithCode(fmt.Sprintf("half%d", i))).ID.String()
		customers = nil
		for range 3 {
			cust := f.sk.CreateCustomer(testenv.Customer()).ID
			_, err := f.env.Redeem(context.Background(), catalog.Redemption{Codes: []string{fmt.Sprintf("HALF%d", i)},
				AmountCents: 1000, CustomerID: &cust, DiscountableType: "Invoice"})
			require.NoError(t, err)
			customers = append(customers, cust.String())
			f.env.Clock.Advance(time.Minute)
		}
	}
	// The coupon's records, newest first, as REST's discount list has them.
	want := []any{}
	for _, row := range f.sk.Get("/v1/discounts?per_page=100").JSON()["data"].([]any) {
		if d := obj(row); d["coupon"] == coupon {
			want = append(want, d["id"])
		}
	}
	require.Len(t, want, 3)
	requireChildPages(t, f, "coupons", "discounts", coupon, want)
	requireChildPages(t, f, "promotionCodes", "discounts", code, want)

	g := gql(t, f.sk, `query($id: ID!, $cu: ID!) { coupon(id: $id) { discounts(customerId: $cu) { edges { node { id } } } } }`,
		map[string]any{"id": coupon, "cu": customers[0]})
	got := []any{}
	for _, e := range list(obj(obj(g.Data["coupon"])["discounts"])["edges"]) {
		got = append(got, obj(obj(e)["node"])["id"])
	}
	require.Equal(t, restIDs(t, f.sk, "/v1/discounts?customer_id="+customers[0]), got)
}
