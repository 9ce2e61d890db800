// Package testdb gives tests real PostgreSQL databases: one server per test
// process (the embedded launcher), one for every process of a run (make
// test's, SharedServerEnv) or DATABASE_URL's, and a fresh database per
// test cloned from a migrated template. It depends only on the platform and
// the migrations, so platform packages can test against real PostgreSQL
// without building the whole server.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver pgtestdb opens
	"github.com/peterldowns/pgtestdb"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/migrations"
)

// Start is the time every test clock starts at.
var Start = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

var (
	pgOnce     sync.Once
	pgInstance *pgembed.Instance
	pgConfig   pgtestdb.Config
	pgErr      error
)

// Main runs a test package's tests and then stops the embedded PostgreSQL
// the package started. Use it from TestMain. Each check runs after the
// tests; one that reports false fails the package.
func Main(m *testing.M, checks ...func() bool) {
	code := m.Run()
	for _, check := range checks {
		if !check() && code == 0 {
			code = 1
		}
	}
	if pgInstance != nil {
		_ = pgInstance.Stop()
	}
	os.Exit(code)
}

// SharedServerEnv holds the superuser URL of a test server shared by
// every test process of a run (make test starts it: internal/testenv/testpg),
// and SharedRolePasswordEnv the password of the role test databases
// belong to on it. Without them (and without DATABASE_URL) each test
// process starts a server of its own.
const (
	SharedServerEnv       = "PAYMENTS_TEST_SERVER_URL"
	SharedRolePasswordEnv = "PAYMENTS_TEST_ROLE_PASSWORD"
)

// serverConfig starts (once) the server every test of this process uses.
// The embedded server requires its generated superuser password, which
// Instance.URL carries; the role pgtestdb creates and connects test
// databases as gets a random password too (instead of pgtestdb's well-known
// default), so other local users cannot reach the test databases either.
// A server shared by the run's processes (SharedServerEnv) comes with that
// role's password, the same for each of them. With DATABASE_URL the
// default role stays, shared by every test process.
func serverConfig(t testing.TB) pgtestdb.Config {
	pgOnce.Do(func() {
		raw, rolePassword := os.Getenv("DATABASE_URL"), ""
		switch {
		case raw != "":
		case os.Getenv(SharedServerEnv) != "":
			raw, rolePassword = os.Getenv(SharedServerEnv), os.Getenv(SharedRolePasswordEnv)
		default:
			pgInstance, pgErr = pgembed.StartTemp(context.Background(), pgembed.Options{ForTests: true})
			if pgErr != nil {
				return
			}
			raw, rolePassword = pgInstance.URL("postgres"), rand.Text()
		}
		pgConfig, pgErr = configFromURL(raw)
		if pgErr == nil && rolePassword != "" {
			role := pgtestdb.DefaultRole()
			role.Password = rolePassword
			pgConfig.TestRole = &role
		}
	})
	if pgErr != nil {
		t.Fatalf("testenv: no PostgreSQL for tests: %v", pgErr)
	}
	return pgConfig
}

func configFromURL(raw string) (pgtestdb.Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return pgtestdb.Config{}, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	pw, _ := u.User.Password()
	opts := u.Query()
	if !opts.Has("sslmode") {
		opts.Set("sslmode", "disable")
	}
	return pgtestdb.Config{DriverName: "pgx", Host: u.Hostname(), Port: u.Port(), User: u.User.Username(),
		Password: pw, Database: strings.TrimPrefix(u.Path, "/"), Options: opts.Encode()}, nil
}

// migrator builds the template database with the application's migrations.
type migrator struct{}

func (migrator) Hash() (string, error) {
	h, err := migrations.Hash()
	return h + "+" + jobs.SchemaVersion(), err
}

// Migrate applies the application's migrations, then the job engine's
// (as the server does at start), so a test can enqueue jobs.
func (migrator) Migrate(ctx context.Context, db *sql.DB, cfg pgtestdb.Config) error {
	if err := migrations.Apply(ctx, bun.NewDB(db, pgdialect.New())); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, cfg.URL())
	if err != nil {
		return err
	}
	defer pool.Close()
	return jobs.Migrate(ctx, pool)
}

// NewDatabaseURL returns the URL of a fresh, migrated database for t,
// dropped when t passes.
func NewDatabaseURL(t testing.TB) string {
	t.Helper()
	server := serverConfig(t)
	if tpl := migrated.Load(); tpl != nil {
		return tpl.clone(t, server)
	}
	// The first databases come from pgtestdb, which builds the template.
	instance := pgtestdb.Custom(t, server, migrator{})
	tpl, err := templateOf(instance)
	if err != nil {
		t.Fatalf("%v", err)
	}
	migrated.CompareAndSwap(nil, tpl)
	return instance.URL()
}

// NewEmptyDatabaseURL returns the URL of a fresh database with no
// migrations applied (for testing the migrations themselves).
func NewEmptyDatabaseURL(t testing.TB) string {
	t.Helper()
	return pgtestdb.Custom(t, serverConfig(t), pgtestdb.NoopMigrator{}).URL()
}
