package rest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

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
