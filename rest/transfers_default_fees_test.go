package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// `merchants create --with-default-fees` installs this for each mode: a
// card charge then prices at 2.9 % + 30 under the merchant's agreement.
func TestDefaultFeesPriceCardCharges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	require.NoError(t, money.InstallDefaultFees(context.Background(), f.env.Services.Money.Kit, scopeOf(f)))
	plans := listOf(t, f.sk, "/v1/transfer_fee_plans")
	require.Len(t, plans, 1)
	require.Equal(t, "Standard Platform Fee", plans[0]["name"])
	agreements := listOf(t, f.sk, "/v1/transfer_billing_agreements")
	require.Len(t, agreements, 2)
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	require.Equal(t, "succeeded", string(tr.Status))
	require.Equal(t, int64(59), tr.TotalFees)
	require.Empty(t, listOf(t, f.live, "/v1/transfer_fee_plans"), "each mode is installed on its own")
}

// A test clock set before the merchant existed (here 2020, the merchant
// created in 2026) charges under the default agreements: they are
// effective from the earliest time a clock can hold, not from the day
// they were installed.
func TestDefaultFeesChargeOnATestClockSetInThePast(t *testing.T) {
	t.Parallel()
	f := setup(t)
	require.NoError(t, money.InstallDefaultFees(context.Background(), f.env.Services.Money.Kit, scopeOf(f)))
	past := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	require.True(t, past.Before(f.env.Merchant.Created.Time))
	clock := id(f.sk.CreateTestClock(testenv.TestClock(past)))
	customer := id(f.sk.CreateClockedCustomer(clock))
	f.sk.CreateCard(customer, testenv.Visa)
	sub := f.sk.CreateSubscription(testenv.Subscription(customer, id(f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly")))))
	require.Equal(t, models.SubscriptionActive, sub.Status, "its first period charged at the clock's time")
	invoices := subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invoices, 1)
	require.Equal(t, "paid", invoices[0]["status"])
	// And the renewal a month on, still years before the merchant.
	f.sk.AdvanceTestClock(clock, past.AddDate(0, 1, 1))
	invoices = subscriptionInvoices(t, f.sk, id(sub))
	require.Len(t, invoices, 2)
	require.Equal(t, "paid", invoices[0]["status"])
}
