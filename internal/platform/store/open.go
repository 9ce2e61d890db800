// Package store owns the database connection. Tenant data is reached only
// through a Tenant, which starts every query from the caller's merchant and
// mode; forgetting the scope is impossible rather than unlikely.
package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// DB is the application's database handle.
type DB struct {
	Bun  *bun.DB
	Pool *pgxpool.Pool
}

// Open connects to url with one pgx pool shared by Bun (and, later, the job
// engine). Bun inlines arguments into SQL text, so the pool uses the simple
// protocol: caching a prepared statement per distinct text would only cost.
func Open(ctx context.Context, url string, maxConns int32) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: parse database url: %w", err)
	}
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: ping: %w", err)
	}
	sqldb := stdlib.OpenDBFromPool(pool)
	db := bun.NewDB(sqldb, pgdialect.New())
	db.AddQueryHook(countingHook{})
	return &DB{Bun: db, Pool: pool}, nil
}

// Close releases every connection.
func (d *DB) Close() {
	_ = d.Bun.Close()
	d.Pool.Close()
}

// SQL returns the database/sql handle (for tools that want one).
func (d *DB) SQL() *sql.DB { return d.Bun.DB }
