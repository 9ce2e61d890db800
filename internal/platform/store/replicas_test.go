package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/models"
)

// replicaFixture is a primary with a real streaming standby, a store over
// both, and two merchants with one account each, replicated.
type replicaFixture struct {
	rp   *testdb.Replicated
	db   *store.DB
	clk  *clock.Manual
	a, b store.Scope
	ctx  context.Context
}

func setupReplica(t *testing.T) *replicaFixture {
	t.Helper()
	ctx := context.Background()
	rp := testdb.NewReplicated(t, "replica")
	db, err := store.Open(ctx, rp.PrimaryURL(), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	ma, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "A"})
	require.NoError(t, err)
	mb, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "B"})
	require.NoError(t, err)
	f := &replicaFixture{rp: rp, db: db, clk: clk, ctx: ctx,
		a: store.Scope{MerchantID: ma.ID}, b: store.Scope{MerchantID: mb.ID}}
	f.addAccount(t, f.a)
	f.addAccount(t, f.b)
	require.NoError(t, rp.Standby.WaitReplayed(ctx, rp.Primary))
	require.NoError(t, db.OpenReplicas(ctx, store.ReplicaConfig{URLs: []string{rp.ReplicaURL()}, MaxLag: 5 * time.Second, Clock: clk}))
	return f
}

// addAccount commits an account in s through Tx, as every write does.
func (f *replicaFixture) addAccount(t *testing.T, s store.Scope) {
	t.Helper()
	now := f.clk.Now()
	require.NoError(t, f.db.Tx(f.ctx, s, func(ctx context.Context, tx *store.Tenant) error {
		a := &models.Account{ID: ids.New(now), Type: models.AccountTypeIndividual, Status: models.AccountStatusPending,
			RestrictedBy: []models.Restrictor{}, Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
		_, err := tx.Insert(a).Exec(ctx)
		return err
	}))
}

// read lists s's accounts as a list does, and tells whether a replica
// served it.
func (f *replicaFixture) read(t *testing.T, ctx context.Context, s store.Scope) (accounts int, onReplica bool) {
	t.Helper()
	before := f.db.Replicas().States()[0].Reads
	n, err := f.db.ReadTenant(ctx, s).Select((*models.Account)(nil)).Count(ctx)
	require.NoError(t, err)
	return int(n), f.db.Replicas().States()[0].Reads > before
}

// A merchant that just wrote reads its lists from the primary while the
// replica has not replayed its commit (the replica is made to lag:
// replay paused); another merchant keeps reading the replica; once the
// replica has replayed, the writer reads it again.
func TestReplicaListsReadYourWrites(t *testing.T) {
	t.Parallel()
	f := setupReplica(t)
	allowed := store.AllowReplica(f.ctx)

	n, onReplica := f.read(t, allowed, f.a)
	require.True(t, onReplica, "a caught-up replica serves lists")
	require.Equal(t, 1, n)
	_, onReplica = f.read(t, f.ctx, f.a)
	require.False(t, onReplica, "a request that does not allow it reads the primary")

	f.rp.PauseReplay(t)
	f.addAccount(t, f.a)
	n, onReplica = f.read(t, allowed, f.a)
	require.False(t, onReplica, "the writer's commit is not replayed: the primary")
	require.Equal(t, 2, n, "the writer sees its write")

	// B wrote nothing through the store: the replica serves it, stale (a
	// row inserted behind the store's back is not there yet).
	_, err := f.db.Pool.Exec(f.ctx, "UPDATE merchants SET name = 'B2' WHERE id = $1", f.b.MerchantID)
	require.NoError(t, err)
	n, onReplica = f.read(t, allowed, f.b)
	require.True(t, onReplica)
	require.Equal(t, 1, n)

	f.rp.ResumeReplay(t)
	_, onReplica = f.read(t, allowed, f.a)
	require.False(t, onReplica, "replayed, but not yet seen by a check: still the primary")
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	n, onReplica = f.read(t, allowed, f.a)
	require.True(t, onReplica, "the replica has replayed the writer's commit")
	require.Equal(t, 2, n)
}

// A replica lagging past MaxLag leaves the rotation, and rejoins once it
// has caught up.
func TestReplicaLaggingPastTheBoundLeavesTheRotation(t *testing.T) {
	t.Parallel()
	f := setupReplica(t)
	allowed := store.AllowReplica(f.ctx)

	f.rp.PauseReplay(t)
	f.addAccount(t, f.a)
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	require.True(t, f.db.Replicas().States()[0].Serving, "behind, but by no time yet")
	f.clk.Advance(4 * time.Second)
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	st := f.db.Replicas().States()[0]
	require.True(t, st.Serving, "4s behind is within the 5s bound")
	require.Equal(t, 4*time.Second, st.Lag)
	_, onReplica := f.read(t, allowed, f.b)
	require.True(t, onReplica)

	f.clk.Advance(2 * time.Second)
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	st = f.db.Replicas().States()[0]
	require.False(t, st.Serving, "6s behind is past the bound")
	require.Equal(t, 6*time.Second, st.Lag)
	_, onReplica = f.read(t, allowed, f.b)
	require.False(t, onReplica, "out of rotation: even a merchant without writes reads the primary")

	f.rp.ResumeReplay(t)
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	st = f.db.Replicas().States()[0]
	require.True(t, st.Serving, "caught up: back in rotation")
	require.Zero(t, st.Lag)
	_, onReplica = f.read(t, allowed, f.b)
	require.True(t, onReplica)
}

// A replica that cannot be reached leaves the rotation.
func TestUnreachableReplicaLeavesTheRotation(t *testing.T) {
	t.Parallel()
	f := setupReplica(t)
	require.NoError(t, f.rp.Standby.Stop())
	require.NoError(t, f.db.Replicas().Check(f.ctx))
	require.False(t, f.db.Replicas().States()[0].Serving)
	_, onReplica := f.read(t, store.AllowReplica(f.ctx), f.b)
	require.False(t, onReplica)
}

func TestParseLSN(t *testing.T) {
	t.Parallel()
	v, err := store.ParseLSN("16/B374D848")
	require.NoError(t, err)
	require.Equal(t, uint64(0x16)<<32|0xB374D848, v)
	for _, bad := range []string{"", "16", "x/1", "1/", "100000000/0"} {
		_, err := store.ParseLSN(bad)
		require.Error(t, err, bad)
	}
}

// A replica behind the primary when it is opened, of unknown lag, serves
// nothing until a check finds it caught up.
func TestReplicaBehindWhenOpenedServesOnceCaughtUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rp := testdb.NewReplicated(t, "replica")
	db, err := store.Open(ctx, rp.PrimaryURL(), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	rp.PauseReplay(t)
	_, _, err = auth.CreateMerchant(ctx, db, clock.NewManual(testdb.Start), auth.NewMerchant{Name: "A"})
	require.NoError(t, err)
	require.NoError(t, db.OpenReplicas(ctx, store.ReplicaConfig{URLs: []string{rp.ReplicaURL()}, Clock: clock.NewManual(testdb.Start)}))
	require.False(t, db.Replicas().States()[0].Serving, "behind by an unknown time")
	rp.ResumeReplay(t)
	require.NoError(t, db.Replicas().Check(ctx))
	require.True(t, db.Replicas().States()[0].Serving)
}
