package areas_test

import (
	"context"
	"testing"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/billing/testclocks"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// registered tells whether workers already has a worker for T's kind:
// River refuses a second one.
func registered[T river.JobArgs](workers *river.Workers) bool {
	return river.AddWorkerSafely(workers, river.WorkFunc(func(context.Context, *river.Job[T]) error { return nil })) != nil
}

// The composition root registers whatever the areas declare: every area's
// workers, found through its field of Services.
func TestServicesRegisterEveryAreasWorkers(t *testing.T) {
	svc := areas.New(&op.Kit{}, areas.Options{})
	workers := river.NewWorkers()
	require.NoError(t, svc.AddWorkers(workers))

	require.True(t, registered[accounts.IdentityRunArgs](workers))
	require.True(t, registered[accounts.CustomerIdentityArgs](workers))
	require.True(t, registered[money.SettleTransferArgs](workers))
	require.True(t, registered[money.DisputeDecisionArgs](workers))
	require.True(t, registered[funding.SweepArgs](workers))
	require.True(t, registered[testclocks.RunDueArgs](workers))
	require.True(t, registered[webhooks.ListenSweepArgs](workers))

	require.Error(t, svc.AddWorkers(workers), "a worker registered twice is a wiring mistake")
}

// The areas' recurring jobs: the funding sweep, the wall clock's due
// effects, the sweep of expired listen sessions.
func TestServicesDeclareTheAreasPeriodicJobs(t *testing.T) {
	svc := areas.New(&op.Kit{}, areas.Options{})
	require.Len(t, svc.PeriodicJobs(), 3)
}
