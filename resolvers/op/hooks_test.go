package op_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// recordingHook notes its name when it runs, and answers err.
type recordingHook struct {
	name string
	ran  *[]string
	err  error
}

func (h recordingHook) PreDelete(_ context.Context, _ *op.W, _ *models.Customer) error {
	*h.ran = append(*h.ran, h.name)
	return h.err
}

// Hooks run in the order registered; the first that fails stops the
// rest, and its error is the answer.
func TestHooksRunInOrderAndStopAtAnError(t *testing.T) {
	t.Parallel()
	var ran []string
	var hooks op.Hooks[models.Customer]
	require.NoError(t, hooks.PreDelete(context.Background(), nil, &models.Customer{}), "no hook: nothing to refuse")

	refused := errors.New("refused")
	hooks.RegisterHooks(recordingHook{name: "first", ran: &ran}, recordingHook{name: "second", ran: &ran})
	require.NoError(t, hooks.PreDelete(context.Background(), nil, &models.Customer{}))
	require.Equal(t, []string{"first", "second"}, ran)

	ran = nil
	hooks.RegisterHooks(recordingHook{name: "third", ran: &ran, err: refused}, recordingHook{name: "fourth", ran: &ran})
	require.ErrorIs(t, hooks.PreDelete(context.Background(), nil, &models.Customer{}), refused)
	require.Equal(t, []string{"first", "second", "third"}, ran)
}

// A hook that fails aborts the write it runs in: what the write had
// changed is rolled back with it.
func TestAFailingHookAbortsItsWrite(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	scope := store.Scope{MerchantID: env.Merchant.ID}
	ctx := context.Background()
	refused := errors.New("refused")
	var ran []string
	var hooks op.Hooks[models.Customer]
	hooks.RegisterHooks(recordingHook{name: "refuses", ran: &ran, err: refused})

	at := time.Date(2030, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &models.Customer{ID: ids.New(at), Email: "c@example.com", Status: models.CustomerActive,
		Metadata: models.Metadata{}, Created: wire.At(at), Updated: wire.At(at)}
	err := op.Background(ctx, env.Services.Catalog.Kit, scope, func(ctx context.Context, w *op.W) error {
		if _, err := w.Tx.Insert(c).Exec(ctx); err != nil {
			return err
		}
		return hooks.PreDelete(ctx, w, c)
	})
	require.ErrorIs(t, err, refused)
	n, err := env.DB.Tenant(scope).Select((*models.Customer)(nil)).Where("id = ?", c.ID).Count(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "the write's insert rolled back with the hook's refusal")
}
