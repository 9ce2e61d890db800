package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// What runs in CreateMerchantWith's transaction commits with the merchant
// and its keys, or nothing does: an error after they are inserted leaves
// neither behind.
func TestCreateMerchantWithIsAllOrNothing(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	ctx := context.Background()
	count := func(query string, args ...any) int {
		var n int
		require.NoError(t, env.DB.Bun.NewRaw(query, args...).Scan(ctx, &n))
		return n
	}

	refused := errors.New("refused after the merchant was inserted")
	var made auth.CreatedMerchant
	_, _, err := auth.CreateMerchantWith(ctx, env.DB, env.Clock, auth.NewMerchant{Name: "Half Made"},
		func(ctx context.Context, c auth.CreatedMerchant) error {
			made = c
			require.Equal(t, c.Merchant.ID, c.Tenant(true).Scope().MerchantID)
			require.True(t, c.Tenant(true).Scope().Livemode)
			return refused
		})
	require.ErrorIs(t, err, refused)
	require.NotNil(t, made.Merchant)
	require.Zero(t, count("SELECT count(*) FROM merchants WHERE id = ?", made.Merchant.ID))
	require.Zero(t, count("SELECT count(*) FROM api_keys WHERE merchant_id = ?", made.Merchant.ID))
	require.Equal(t, 401, env.Client(made.Keys.Sandbox.Secret).Get("/v1/accounts").Status)

	m, keys, err := auth.CreateMerchantWith(ctx, env.DB, env.Clock, auth.NewMerchant{Name: "Whole"},
		func(context.Context, auth.CreatedMerchant) error { return nil })
	require.NoError(t, err)
	require.Equal(t, 4, count("SELECT count(*) FROM api_keys WHERE merchant_id = ?", m.ID))
	require.Equal(t, 200, env.Client(keys.Sandbox.Secret).Get("/v1/accounts").Status)
}
