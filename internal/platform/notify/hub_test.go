package notify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func keyValue(payload string) (string, string, bool) { return strings.Cut(payload, "|") }

func notifyAll(t *testing.T, db *store.DB, payloads ...string) {
	t.Helper()
	_, err := db.Pool.Exec(context.Background(), "SELECT pg_notify('hub_test', p) FROM unnest($1::text[]) AS p", payloads)
	require.NoError(t, err)
}

// A hub hands each key's subscribers their values in commit order, ends
// a subscriber that lets more than its buffer wait (ErrFellBehind, after
// which what it had is still readable), one whose context ends, and every
// one when it closes.
func TestHubFansOutAndBoundsSubscribers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	h := notify.New(db, notify.Config[string, string]{Channel: "hub_test", Parse: keyValue, Buffer: 2})
	a, err := h.Subscribe(ctx, "a")
	require.NoError(t, err)
	b, err := h.Subscribe(ctx, "b")
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	c, err := h.Subscribe(cctx, "c")
	require.NoError(t, err)

	notifyAll(t, db, "a|1", "b|x", "a|2", "nokey")
	require.Equal(t, "1", <-a.C)
	require.Equal(t, "2", <-a.C)
	require.Equal(t, "x", <-b.C)

	notifyAll(t, db, "a|3", "a|4", "a|5")
	<-a.Done()
	require.ErrorIs(t, a.Err(), notify.ErrFellBehind)
	var left []string
	for v := range a.C {
		left = append(left, v)
	}
	require.Equal(t, []string{"3", "4"}, left, "what fit in the buffer")

	cancel()
	<-c.Done()
	require.ErrorIs(t, c.Err(), context.Canceled)
	_, open := <-c.C
	require.False(t, open)

	h.Close()
	h.Close() // again: nothing more
	<-b.Done()
	require.ErrorIs(t, b.Err(), notify.ErrClosed)
	_, err = h.Subscribe(ctx, "a")
	require.ErrorIs(t, err, notify.ErrClosed)
}
