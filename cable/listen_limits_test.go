package cable_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Sessions opened at once, on as many connections, never exceed the
// merchant's live limit: the opens take a lock, so exactly MaxLive are
// confirmed.
func TestListenLiveLimitHoldsUnderConcurrentOpens(t *testing.T) {
	t.Parallel()
	env := testenv.New(t, testenv.WithListen(webhooks.ListenConfig{MaxLive: 3}))
	const n = 6
	conns := make([]*testenv.Cable, n)
	for i := range conns {
		conns[i] = env.DialCable(env.Keys.Sandbox.Secret)
		require.Equal(t, "welcome", conns[i].Next().Type)
	}
	id := testenv.ListenIdentifier(nil, false, "")
	answers := make([]string, n)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			c.Subscribe(id, 0)
			answers[i] = c.Next().Type
		})
	}
	wg.Wait()
	confirmed := 0
	for _, a := range answers {
		if a == "confirm_subscription" {
			confirmed++
		} else {
			require.Equal(t, "reject_subscription", a)
		}
	}
	require.Equal(t, 3, confirmed)
	var live int
	require.NoError(t, env.DB.Bun.NewRaw("SELECT count(*) FROM listen_sessions WHERE ended IS NULL").
		Scan(context.Background(), &live))
	require.Equal(t, 3, live)
}

// A key revoked while the CLI listens ends its connection at the next
// check of the credential (and a reconnect is refused).
func TestRevokedKeyEndsTheListenConnection(t *testing.T) {
	t.Parallel()
	env := testenv.New(t, testenv.WithCableRecheck(50*time.Millisecond))
	c, _, _ := listening(t, env, nil, false)
	_, err := auth.RevokeKey(context.Background(), env.DB, env.Clock, env.Keys.Sandbox.Secret)
	require.NoError(t, err)
	for {
		f, ok := c.NextOrClosed()
		require.True(t, ok, "a disconnect frame comes first")
		if f.Type == "disconnect" {
			require.Equal(t, "the credential is no longer valid", f.Reason)
			break
		}
	}
	_, open := c.NextOrClosed()
	require.False(t, open)
	requireRefused(t, env, env.Keys.Sandbox.Secret, []string{"actioncable-v1-json"}, 401, "invalid_api_key")
}
