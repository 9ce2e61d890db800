package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestKeysHaveTheDocumentedShapes(t *testing.T) {
	t.Parallel()
	for kind, prefix := range map[auth.Kind]string{auth.SecretKey: "sk_", auth.PublishableKey: "pk_"} {
		for livemode, mode := range map[bool]string{false: "sandbox_", true: "production_"} {
			k := auth.NewAPIKey(kind, livemode)
			require.True(t, strings.HasPrefix(k, prefix+mode), k)
			require.Len(t, strings.TrimPrefix(k, prefix+mode), 40)
			require.Equal(t, prefix+mode+k[len(prefix+mode):len(prefix+mode)+4], auth.DisplayPrefix(k))
		}
	}
	require.NotEqual(t, auth.NewAPIKey(auth.SecretKey, false), auth.NewAPIKey(auth.SecretKey, false))
	require.Len(t, auth.Hash("x"), 32)
}

// Only hashes are stored: the plaintext key appears nowhere in the table.
func TestKeysAreStoredHashed(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	var n int
	err := env.DB.Bun.NewRaw("SELECT count(*) FROM api_keys WHERE hash = ? AND prefix = ? AND position(? in prefix) = 0",
		auth.Hash(env.Keys.Sandbox.Secret), auth.DisplayPrefix(env.Keys.Sandbox.Secret), env.Keys.Sandbox.Secret).Scan(context.Background(), &n)
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

func TestModeComesFromTheKey(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	r := env.Client(env.Keys.Production.Secret).Post("/v1/accounts", map[string]any{"type": "business",
		"profile": map[string]any{"business": map[string]any{"legal_business_name": "Live Co"}}})
	require.Equal(t, 201, r.Status, string(r.Body))
	require.Equal(t, true, r.JSON()["livemode"])
	id := r.JSON()["id"].(string)
	require.Equal(t, 404, env.Client(env.Keys.Sandbox.Secret).Get("/v1/accounts/"+id).Status)
}

func TestRotateAndRevoke(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	ctx := context.Background()
	old := env.Keys.Sandbox.Secret

	withGrace, err := auth.RotateKey(ctx, env.DB, env.Clock, env.Merchant.ID, auth.SecretKey, false, time.Hour)
	require.NoError(t, err)
	require.Equal(t, 200, env.Client(old).Get("/v1/accounts").Status, "the old key works during the grace period")
	require.Equal(t, 200, env.Client(withGrace).Get("/v1/accounts").Status)
	env.Clock.Advance(time.Hour + time.Second)
	r := env.Client(old).Get("/v1/accounts")
	require.Equal(t, 401, r.Status)
	require.Equal(t, "invalid_api_key", r.JSON()["code"])

	now, err := auth.RotateKey(ctx, env.DB, env.Clock, env.Merchant.ID, auth.SecretKey, false, 0)
	require.NoError(t, err)
	require.Equal(t, 401, env.Client(withGrace).Get("/v1/accounts").Status, "without grace the replaced key stops at once")
	require.Equal(t, 200, env.Client(now).Get("/v1/accounts").Status)
	require.Equal(t, 200, env.Client(env.Keys.Production.Secret).Get("/v1/accounts").Status, "other modes are untouched")

	n, err := auth.RevokeKey(ctx, env.DB, env.Clock, auth.DisplayPrefix(now))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 401, env.Client(now).Get("/v1/accounts").Status)
}

// A display prefix is four random characters: two merchants' keys may
// share one. Revoking by such a prefix names the merchant, or is refused
// and revokes nothing; it never reaches another merchant's key.
func TestRevokeByPrefixNeverReachesAnotherMerchantsKey(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	ctx := context.Background()
	mine := env.Keys.Sandbox.Secret
	_, keys := env.NewMerchant(auth.NewMerchant{Name: "Other"})
	theirs := keys.Sandbox.Secret
	// Their key is given my key's display prefix, as chance may do.
	_, err := env.DB.Bun.NewRaw("UPDATE api_keys SET prefix = ? WHERE hash = ?", auth.DisplayPrefix(mine), auth.Hash(theirs)).Exec(ctx)
	require.NoError(t, err)
	works := func(key string) int { return env.Client(key).Get("/v1/accounts").Status }

	n, err := auth.RevokeKey(ctx, env.DB, env.Clock, auth.DisplayPrefix(mine))
	require.ErrorIs(t, err, auth.ErrAmbiguousPrefix)
	require.Zero(t, n)
	require.Equal(t, 200, works(mine), "nothing revoked")
	require.Equal(t, 200, works(theirs), "nothing revoked")

	n, err = auth.RevokeKeyOf(ctx, env.DB, env.Clock, auth.DisplayPrefix(mine), env.Merchant.ID)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 401, works(mine))
	require.Equal(t, 200, works(theirs), "the other merchant's key is untouched")

	// Their key, now the only live one with the prefix, by the prefix
	// alone; a prefix naming another merchant's key revokes nothing.
	n, err = auth.RevokeKeyOf(ctx, env.DB, env.Clock, auth.DisplayPrefix(mine), env.Merchant.ID)
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = auth.RevokeKey(ctx, env.DB, env.Clock, auth.DisplayPrefix(mine))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 401, works(theirs))
}
