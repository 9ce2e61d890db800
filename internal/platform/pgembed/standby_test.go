package pgembed

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// A standby made by the launcher streams the primary's writes, serves them
// read-only, refuses writes, and once promoted accepts them.
func TestStandbyFollowsThePrimaryAndIsPromoted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long (a primary and a standby cluster): make test runs it, make test-short does not")
	}
	ctx := testCtx(t)
	primary, err := StartTemp(ctx, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = primary.Stop() })
	exec1(t, primary.URL("postgres"), "CREATE TABLE before_copy (n int); INSERT INTO before_copy VALUES (1)")

	standby, err := StartTempStandby(ctx, primary, StandbyOptions{Name: "replica_one"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = standby.Stop() })

	exec1(t, primary.URL("postgres"), "INSERT INTO before_copy VALUES (2)")
	require.NoError(t, standby.WaitReplayed(ctx, primary))

	conn, err := pgx.Connect(ctx, standby.URL("postgres"))
	require.NoError(t, err)
	defer func() { _ = conn.Close(context.Background()) }()
	var n int
	var recovering bool
	require.NoError(t, conn.QueryRow(ctx, "SELECT sum(n), pg_is_in_recovery() FROM before_copy").Scan(&n, &recovering))
	require.Equal(t, 3, n, "the copy and the streamed row")
	require.True(t, recovering)
	_, err = conn.Exec(ctx, "INSERT INTO before_copy VALUES (3)")
	require.ErrorContains(t, err, "read-only transaction")

	var app string
	pc, err := pgx.Connect(ctx, primary.URL("postgres"))
	require.NoError(t, err)
	defer func() { _ = pc.Close(context.Background()) }()
	require.NoError(t, pc.QueryRow(ctx, "SELECT application_name FROM pg_stat_replication").Scan(&app))
	require.Equal(t, "replica_one", app)

	primary.Kill()
	require.NoError(t, standby.Promote(ctx))
	require.NoError(t, conn.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&recovering))
	require.False(t, recovering)
	_, err = conn.Exec(ctx, "INSERT INTO before_copy VALUES (3)")
	require.NoError(t, err)
}
