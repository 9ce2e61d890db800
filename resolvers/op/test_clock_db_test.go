package op_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A write about an object on a test clock takes the clock's time, whether
// the object is bound to it or its payer is; a due effect stays at the
// instant it fell due whatever clock its object is on; a write about an
// object on no clock keeps the server's time; and a write whose time was
// read cannot move it to a clock's.
func TestAWriteTakesTheTimeOfTheClockItsObjectIsOn(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	kit := env.Services.Billing.Kit
	scope := store.Scope{MerchantID: env.Merchant.ID}
	ctx := context.Background()
	tx := env.DB.Tenant(scope)
	frozen := time.Date(2030, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := &models.TestClock{ID: ids.New(frozen), AdvancedTo: wire.At(frozen), Status: models.TestClockReady,
		Created: wire.At(frozen), Updated: wire.At(frozen)}
	_, err := tx.Insert(clock).Exec(ctx)
	require.NoError(t, err)
	customer := func(clock *uuid.UUID) *models.Customer {
		c := &models.Customer{ID: ids.New(frozen), Email: "c@example.com", Status: models.CustomerActive,
			Metadata: models.Metadata{}, TestClockID: clock, Created: wire.At(frozen), Updated: wire.At(frozen)}
		_, err := tx.Insert(c).Exec(ctx)
		require.NoError(t, err)
		return c
	}
	onClock, onNone := customer(&clock.ID), customer(nil)
	write := func(fn func(w *op.W) error) {
		t.Helper()
		require.NoError(t, op.Background(ctx, kit, scope, func(ctx context.Context, w *op.W) error { return fn(w) }))
	}

	write(func(w *op.W) error {
		bound, err := w.AtPayerClock(ctx, &onClock.ID, nil)
		require.NoError(t, err)
		require.Equal(t, &clock.ID, bound)
		require.True(t, w.Now().Equal(frozen))
		return nil
	})
	write(func(w *op.W) error {
		require.NoError(t, w.AtBoundClock(ctx, &clock.ID))
		require.True(t, w.Now().Equal(frozen))
		return nil
	})
	write(func(w *op.W) error {
		bound, err := w.AtPayerClock(ctx, &onNone.ID, nil)
		require.NoError(t, err)
		require.Nil(t, bound)
		before := env.Clock.Now()
		now := w.Now()
		require.False(t, now.Before(before) || now.After(env.Clock.Now()), "on no clock, the server's time")
		return nil
	})
	due := frozen.Add(-time.Hour)
	write(func(w *op.W) error {
		require.NoError(t, w.AtDueInstant(due))
		bound, err := w.AtPayerClock(ctx, &onClock.ID, nil)
		require.NoError(t, err)
		require.Equal(t, &clock.ID, bound, "a due effect still learns its payer's clock")
		require.NoError(t, w.AtBoundClock(ctx, &clock.ID))
		require.True(t, w.Now().Equal(due), "a due effect stays at the instant it fell due")
		return nil
	})
	write(func(w *op.W) error {
		w.Now()
		require.Error(t, w.AtBoundClock(ctx, &clock.ID), "a write's time, once read, is not moved")
		return nil
	})
}
