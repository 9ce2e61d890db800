package testdb

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/migrations"
)

// ReplicatedDatabase is the name of the database a Replicated pair holds.
const ReplicatedDatabase = "payments"

// Replicated is a primary with a streaming standby of its own, for the
// tests of reading from replicas, failing over and pooling: the shared
// test server's churn would otherwise stream to every standby.
type Replicated struct {
	Primary, Standby *pgembed.Instance
}

// PrimaryURL and ReplicaURL are the migrated database on each.
func (r *Replicated) PrimaryURL() string { return r.Primary.URL(ReplicatedDatabase) }
func (r *Replicated) ReplicaURL() string { return r.Standby.URL(ReplicatedDatabase) }

// NewReplicated starts a primary, migrates ReplicatedDatabase on it, then
// starts a standby copied from it (pg_basebackup) named standby, which
// streams from it; both stop when t ends. prepare, when given, runs on the
// primary's database after the migrations and before the copy (settings
// the standby must inherit).
func NewReplicated(t testing.TB, standby string, prepare ...string) *Replicated {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	primary := NewPrimary(t, prepare...)
	sb, err := pgembed.StartTempStandby(ctx, primary, pgembed.StandbyOptions{Name: standby})
	if err != nil {
		t.Fatalf("testdb: start a standby: %v", err)
	}
	t.Cleanup(func() { _ = sb.Stop() })
	if err := sb.WaitReplayed(ctx, primary); err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return &Replicated{Primary: primary, Standby: sb}
}

// NewPrimary starts a PostgreSQL server of t's own with ReplicatedDatabase
// migrated on it (and prepare run there), committing as production does
// (synchronous_commit on); it stops when t ends. A test that starts a
// cluster of its own is Long: make test-short leaves it out.
func NewPrimary(t testing.TB, prepare ...string) *pgembed.Instance {
	t.Helper()
	Long(t, "a PostgreSQL cluster of its own")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	primary, err := pgembed.StartTemp(ctx, pgembed.Options{ForTests: true})
	if err != nil {
		t.Fatalf("testdb: start a primary: %v", err)
	}
	t.Cleanup(func() { _ = primary.Stop() })
	admin, err := pgx.Connect(ctx, primary.URL("postgres"))
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	_, err = admin.Exec(ctx, "CREATE DATABASE "+ReplicatedDatabase)
	_ = admin.Close(ctx)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	// Commits flush their WAL, as in production (the test server's
	// synchronous_commit=off would let a commit wait for the WAL writer
	// before it can stream), so a replica's position follows commits.
	prepare = append([]string{"ALTER DATABASE " + ReplicatedDatabase + " SET synchronous_commit = on"}, prepare...)
	if err := migrate(ctx, primary.URL(ReplicatedDatabase), prepare); err != nil {
		t.Fatalf("testdb: migrate the primary: %v", err)
	}
	return primary
}

func migrate(ctx context.Context, url string, prepare []string) error {
	sqldb, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	db := bun.NewDB(sqldb, pgdialect.New())
	defer func() { _ = db.Close() }()
	if err := migrations.Apply(ctx, db); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := jobs.Migrate(ctx, pool); err != nil {
		return err
	}
	for _, stmt := range prepare {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// PauseReplay stops the standby replaying the WAL it receives (it keeps
// receiving it), so it lags for as long as the test wants, and returns once
// the standby reports replay paused.
func (r *Replicated) PauseReplay(t testing.TB) {
	t.Helper()
	r.onStandby(t, func(ctx context.Context, c *pgx.Conn) error {
		if _, err := c.Exec(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
			return err
		}
		for {
			var state string
			if err := c.QueryRow(ctx, "SELECT pg_get_wal_replay_pause_state()").Scan(&state); err != nil {
				return err
			}
			if state == "paused" {
				return nil
			}
			if err := clock.Sleep(ctx, 5*time.Millisecond); err != nil {
				return err
			}
		}
	})
}

// ResumeReplay lets the standby replay again and waits until it has
// replayed everything the primary has flushed.
func (r *Replicated) ResumeReplay(t testing.TB) {
	t.Helper()
	r.onStandby(t, func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, "SELECT pg_wal_replay_resume()")
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Standby.WaitReplayed(ctx, r.Primary); err != nil {
		t.Fatalf("testdb: %v", err)
	}
}

func (r *Replicated) onStandby(t testing.TB, fn func(context.Context, *pgx.Conn) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, r.Standby.URL("postgres"))
	if err != nil {
		t.Fatalf("testdb: connect to the standby: %v", err)
	}
	defer func() { _ = c.Close(ctx) }()
	if err := fn(ctx, c); err != nil {
		t.Fatalf("testdb: on the standby: %v", err)
	}
}
