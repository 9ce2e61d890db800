package accounts_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// A write that waited for the account's lock works on the capabilities the
// lock holder committed: it reads them after the lock, in a statement of its
// own. (Aggregated into the locking statement, as reads do, they would come
// from the snapshot that statement started with, before the wait: the
// holder's new capability missing, its change undone by the next write.)
func TestAWriteThatWaitedForTheLockSeesTheCapabilitiesCommittedMeanwhile(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	a := sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	id := uuid.MustParse(a["id"].(string))
	ctx := context.Background()

	// Another writer holds the lock, adds a capability and changes one.
	holder, err := env.DB.Bun.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = holder.Rollback() }()
	_, err = holder.ExecContext(ctx, `SELECT 1 FROM accounts WHERE merchant_id = ? AND id = ? FOR UPDATE`, env.Merchant.ID, id)
	require.NoError(t, err)
	_, err = holder.ExecContext(ctx, `INSERT INTO capabilities (merchant_id, id, livemode, account_id, name, status, created, updated)
		VALUES (?, ?, false, ?, 'kyc_prefill', 'pending', now(), now())`, env.Merchant.ID, uuid.Must(uuid.NewV7()), id)
	require.NoError(t, err)
	_, err = holder.ExecContext(ctx, `UPDATE capabilities SET status = 'disabled', disabled = now(), updated = now()
		WHERE merchant_id = ? AND account_id = ? AND name = 'kyc'`, env.Merchant.ID, id)
	require.NoError(t, err)

	done := make(chan *testenv.Response, 1)
	go func() {
		done <- sk.Patch("/v1/accounts/"+id.String(), map[string]any{"metadata": map[string]any{"k": "v"}})
	}()
	poll.Until(t, "the update to wait for the lock", func() bool {
		var waiting int
		err := env.DB.Bun.NewRaw(`SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(ctx, &waiting)
		return err == nil && waiting > 0
	})
	require.NoError(t, holder.Commit())

	r := <-done
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	statuses := map[string]any{}
	for _, c := range r.JSON()["capabilities"].([]any) {
		c := c.(map[string]any)
		statuses[c["name"].(string)] = c["status"]
	}
	require.Equal(t, map[string]any{"kyc": "disabled", "kyc_prefill": "pending"}, statuses)
	require.Equal(t, r.JSON()["capabilities"], sk.Get("/v1/accounts/" + id.String()).JSON()["capabilities"])
}
