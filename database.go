package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"
	"github.com/frame-oss/payments-server/internal/platform/logsink"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/migrations"
)

// embeddedDatabase is the database the server keeps in the embedded cluster.
const embeddedDatabase = "payments"

var errUsage = errors.New("usage")

// dbFlags are the flags every database-using command shares.
type dbFlags struct {
	dataDir  string
	maxConns int
	envErr   error // an environment value that did not parse

	// embedded is the embedded PostgreSQL database opened (nil with
	// DATABASE_URL): a local standby copies it (serve --replica).
	embedded *pgembed.Instance
}

func (d *dbFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.dataDir, "data-dir", envOr("DATA_DIR", pgembed.DefaultDataDir),
		"data folder of the embedded PostgreSQL (env DATA_DIR; unused with DATABASE_URL)")
	f := flagenv.New(fs, os.Getenv)
	f.Int(&d.maxConns, "db-max-conns", "DATABASE_MAX_CONNS",
		"most database connections this process opens (0: 4 per CPU, at least 8)")
	d.envErr = f.Err()
}

// database opens DATABASE_URL, or the embedded cluster in the data dir
// (starting it, or attaching to the one a running server started), and
// applies pending migrations. close releases it: it stops the embedded
// server only when this process started it.
func (d *dbFlags) database(ctx context.Context, logger *slog.Logger) (db *store.DB, closeFn func(), err error) {
	if d.envErr != nil {
		return nil, nil, d.envErr
	}
	url := os.Getenv("DATABASE_URL")
	var inst *pgembed.Instance
	if url == "" {
		inst, err = pgembed.Start(ctx, pgembed.Options{DataDir: d.dataDir, Logger: logger})
		if err != nil {
			return nil, nil, err
		}
		if err := ensureDatabase(ctx, inst.URL("postgres"), embeddedDatabase); err != nil {
			_ = inst.Stop()
			return nil, nil, err
		}
		url = inst.URL(embeddedDatabase)
	}
	stop := func() {
		if inst != nil {
			_ = inst.Stop()
		}
	}
	var opts []store.Option
	if inst != nil {
		// Follow the embedded server when whoever owns it restarts it on
		// another port: each new connection reads where it listens now.
		opts = append(opts, store.WithConnTarget(inst.Retarget))
	}
	// DATABASE_URL through a transaction pooler (PgBouncer): what needs a
	// session (LISTEN, the migrations' advisory lock) connects to
	// DATABASE_DIRECT_URL (docs/scaling.md).
	direct := os.Getenv("DATABASE_DIRECT_URL")
	if direct != "" {
		opts = append(opts, store.WithPooler(direct, os.Getenv("DATABASE_POOLER_PREPARED_STATEMENTS") == "named"))
	}
	db, err = store.Open(ctx, url, int32(max(d.maxConns, 0)), opts...)
	if err != nil {
		stop()
		return nil, nil, err
	}
	migrateURL := url
	if direct != "" {
		migrateURL = direct
	}
	if err := migrate(ctx, db, migrateURL); err != nil {
		db.Close()
		stop()
		return nil, nil, err
	}
	d.embedded = inst
	return db, func() { db.Close(); stop() }, nil
}

// migrate applies the application's migrations, then the job engine's
// (River migrates one transaction per version), over db or, when db goes
// through a transaction pooler, over a pool of its own on url (their
// advisory lock belongs to a session).
func migrate(ctx context.Context, db *store.DB, url string) error {
	if db.Pooled() {
		direct, err := store.Open(ctx, url, 2)
		if err != nil {
			return err
		}
		defer direct.Close()
		db = direct
	}
	if err := migrations.Apply(ctx, db.Bun); err != nil {
		return err
	}
	return jobs.Migrate(ctx, db.Pool)
}

// ensureDatabase creates the named database when it does not exist yet. Two
// processes may race here; the loser's "already exists" is success.
func ensureDatabase(ctx context.Context, adminURL, name string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect to embedded postgres: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		var again bool
		if qerr := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&again); qerr == nil && again {
			return nil
		}
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// describe names the database a command uses, for a person reading its
// output: the embedded PostgreSQL's data dir as an absolute path, or that
// DATABASE_URL chose another server. Two commands run with different data
// dirs use two databases: this is what tells them apart.
func (d *dbFlags) describe() string {
	if os.Getenv("DATABASE_URL") != "" {
		return "the PostgreSQL of DATABASE_URL"
	}
	return "the embedded PostgreSQL in data dir " + d.absDataDir()
}

// absDataDir is the data dir as an absolute path (as given when that fails).
func (d *dbFlags) absDataDir() string {
	if abs, err := filepath.Abs(d.dataDir); err == nil {
		return abs
	}
	return d.dataDir
}

// withDatabase runs fn with the database, for an operator command, and
// releases it afterwards.
func (d *dbFlags) withDatabase(fn func(ctx context.Context, db *store.DB) error) error {
	ctx := context.Background()
	db, closeDB, err := d.database(ctx, cliLogger())
	if err != nil {
		return err
	}
	defer closeDB()
	return fn(ctx, db)
}

// subcommand is one verb of a command group (merchants create, keys rotate).
type subcommand func(args []string, stdout, stderr io.Writer) error

// dispatch runs the verb args[0] of group.
func dispatch(group string, verbs map[string]subcommand, names string, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if fn, ok := verbs[args[0]]; ok {
			return fn(args[1:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "unknown %s command %q\n", group, args[0])
	}
	fmt.Fprintf(stderr, "usage: server %s %s [flags]\n", group, names)
	return errUsage
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// defaultLogFlushInterval is how long serve's log lines may wait in
// memory (logsink).
const defaultLogFlushInterval = 100 * time.Millisecond

// newLogger is serve's JSON logger at LOG_LEVEL (info by default), writing
// to w through a buffer flushed every LOG_FLUSH_INTERVAL (a Go duration;
// 0 writes each line at once) and at once for warnings and errors. Close
// the returned sink last.
func newLogger(w *os.File) (*slog.Logger, *logsink.Sink, error) {
	interval := defaultLogFlushInterval
	if v := os.Getenv("LOG_FLUSH_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, nil, fmt.Errorf("LOG_FLUSH_INTERVAL: %q is not a non-negative duration", v)
		}
		interval = d
	}
	sink := logsink.New(w, interval)
	level := levelFromEnv("info")
	h := logsink.FlushAt{Handler: slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: level}),
		Sink: sink, Level: slog.LevelWarn}
	return slog.New(h), sink, nil
}

// cliLogger is quieter: operator commands print their result, and only
// warnings and errors of the machinery.
func cliLogger() *slog.Logger { return loggerAt(os.Stderr, "warn") }

func loggerAt(w *os.File, fallback string) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: levelFromEnv(fallback)}))
}

// levelFromEnv is LOG_LEVEL, or fallback when unset; info when it does not
// parse.
func levelFromEnv(fallback string) slog.Level {
	var level slog.Level
	if err := level.UnmarshalText([]byte(envOr("LOG_LEVEL", fallback))); err != nil {
		level = slog.LevelInfo
	}
	return level
}
