// Package store owns the database connection. Tenant data is reached only
// through a Tenant, which starts every query from the caller's merchant and
// mode; forgetting the scope is impossible rather than unlikely.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/internal/platform/tracing"
)

// DB is the application's database handle.
type DB struct {
	Bun  *bun.DB
	Pool *pgxpool.Pool

	replicas *Replicas // read replicas (OpenReplicas); nil without
	// direct is the URL of a session connection for LISTEN when the pool
	// goes through a transaction pooler (WithPooler); "" otherwise.
	direct string
	// prepared is how prepared reads are sent (prepared.go).
	prepared pgx.QueryExecMode
}

// Option adjusts how Open connects.
type Option func(*openConfig)

type openConfig struct {
	pool     *pgxpool.Config
	direct   string
	prepared pgx.QueryExecMode
}

// WithConnTarget runs target before every new connection of the pool (not
// before every query) with a copy of the connection config it may rewrite:
// host, port, password. It lets a pool follow a database that moves, such
// as the embedded PostgreSQL another process owns and restarts on a new
// port (pgembed's Instance.Retarget). An error from target fails that
// connection attempt as unavailable (ErrUnavailable: a 503 for the API);
// the next attempt asks again.
func WithConnTarget(target func(context.Context, *pgx.ConnConfig) error) Option {
	return func(o *openConfig) {
		o.pool.BeforeConnect = func(ctx context.Context, cc *pgx.ConnConfig) error {
			if err := target(ctx, cc); err != nil {
				return fmt.Errorf("%w: %w", ErrUnavailable, err)
			}
			return nil
		}
	}
}

// DefaultMaxConns is the pool size when none is configured: four
// connections per CPU, at least eight. pgx's own default (one per CPU, at
// least four) makes 32 concurrent requests on two cores queue for a
// connection while PostgreSQL sits idle between their round trips.
func DefaultMaxConns() int32 { return int32(max(8, 4*runtime.GOMAXPROCS(0))) }

// Open connects to url with one pgx pool shared by Bun and the job engine,
// of maxConns connections (0: DefaultMaxConns). Bun inlines arguments into
// SQL text, so the pool uses the simple protocol: caching a prepared
// statement per distinct text would only cost.
func Open(ctx context.Context, url string, maxConns int32, opts ...Option) (*DB, error) {
	o := openConfig{prepared: pgx.QueryExecModeCacheStatement}
	pool, db, err := openPool(ctx, url, maxConns, &o, opts...)
	if err != nil {
		return nil, err
	}
	return &DB{Bun: db, Pool: pool, direct: o.direct, prepared: o.prepared}, nil
}

// WithPooler says that url reaches PostgreSQL through a pooler in
// transaction mode (PgBouncer), where a server connection serves one
// transaction and then another client: what needs a session does not go
// through it. LISTEN (Listen) connects to direct, PostgreSQL itself.
// Prepared reads (PreparedRead) are sent as unnamed statements, parsed
// and bound in the one round trip of their execution, unless named is
// true: a pooler that keeps named prepared statements across server
// connections (PgBouncer 1.21 and later with max_prepared_statements set)
// can take them, which saves the planning.
func WithPooler(direct string, named bool) Option {
	return func(o *openConfig) {
		o.direct = direct
		if !named {
			o.prepared = pgx.QueryExecModeCacheDescribe
		}
	}
}

// openPool opens a pool as Open describes, and Bun over it.
func openPool(ctx context.Context, url string, maxConns int32, o *openConfig, opts ...Option) (*pgxpool.Pool, *bun.DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, nil, fmt.Errorf("store: parse database url: %w", err)
	}
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	if tracing.Active() {
		// Every statement run for a traced request is a span of its trace
		// (internal/platform/tracing): its kind ("SELECT") and the server,
		// never its text (Bun writes the values into it) nor its arguments.
		cfg.ConnConfig.Tracer = otelpgx.NewTracer(otelpgx.WithDisableSQLStatementInAttributes())
	}
	if maxConns <= 0 {
		maxConns = DefaultMaxConns()
	}
	cfg.MaxConns = maxConns
	o.pool = cfg
	for _, opt := range opts {
		opt(o)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("store: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("store: ping: %w", err)
	}
	sqldb := stdlib.OpenDBFromPool(pool)
	db := bun.NewDB(sqldb, dialect)
	db.AddQueryHook(countingHook{})
	return pool, db, nil
}

// dialect is the process's one PostgreSQL dialect. Bun keeps its table
// metadata (columns, tags, pluralised names, found by reflection) on the
// dialect, so databases opened with one share what was learned once
// instead of reflecting every model again: a process that opens many
// databases (a test suite opens one per test) would otherwise spend a
// measurable share of its CPU there.
var dialect = pgdialect.New()

// Listen opens a session connection of its own, outside the pool's count,
// for LISTEN: to PostgreSQL directly when the pool goes through a
// transaction pooler (WithPooler), else one taken out of the pool for
// good. The caller closes it.
func (d *DB) Listen(ctx context.Context) (*pgx.Conn, error) {
	if d.direct != "" {
		return pgx.Connect(ctx, d.direct)
	}
	pc, err := d.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return pc.Hijack(), nil
}

// Pooled reports whether the pool goes through a transaction pooler
// (WithPooler): what needs a session (LISTEN, the job engine's
// notifications) must not use it.
func (d *DB) Pooled() bool { return d.direct != "" }

// Close releases every connection.
func (d *DB) Close() {
	if d.replicas != nil {
		d.replicas.close()
	}
	_ = d.Bun.Close()
	d.Pool.Close()
}

// SQL returns the database/sql handle (for tools that want one).
func (d *DB) SQL() *sql.DB { return d.Bun.DB }
