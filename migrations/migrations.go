// Package migrations holds the forward-only SQL migrations, embedded in the
// binary, and runs them with bun/migrate under a PostgreSQL advisory lock so
// that several server processes can start against one database at once.
package migrations

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

//go:embed *.sql
var files embed.FS

// advisoryLockKey is an arbitrary constant shared by every process that migrates.
const advisoryLockKey = 7_346_113_901

// Migrations returns the embedded migration set.
func Migrations() (*migrate.Migrations, error) {
	m := migrate.NewMigrations()
	if err := m.Discover(files); err != nil {
		return nil, fmt.Errorf("discover migrations: %w", err)
	}
	return m, nil
}

// Apply runs every pending migration. It holds a session advisory lock on a
// dedicated connection for the duration, so a second process waits and then
// finds nothing left to do.
func Apply(ctx context.Context, db *bun.DB) error {
	ms, err := Migrations()
	if err != nil {
		return err
	}
	return apply(ctx, db, ms)
}

// ApplyFirst runs the pending ones of the first n migrations, leaving the
// database at an earlier schema version: the upgrade test fills a database
// as each version stored its objects, then applies the rest with Apply.
func ApplyFirst(ctx context.Context, db *bun.DB, n int) error {
	all, err := Migrations()
	if err != nil {
		return err
	}
	sorted := all.Sorted()
	if n < 0 || n > len(sorted) {
		return fmt.Errorf("migrate: %d of %d migrations", n, len(sorted))
	}
	first := migrate.NewMigrations()
	for _, m := range sorted[:n] {
		first.Add(m)
	}
	return apply(ctx, db, first)
}

func apply(ctx context.Context, db *bun.DB, ms *migrate.Migrations) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", advisoryLockKey); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", advisoryLockKey) //nolint:errcheck

	m := migrate.NewMigrator(db, ms)
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", err)
	}
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Pending reports how many migrations have not been applied; /readyz uses it.
func Pending(ctx context.Context, db *bun.DB) (int, error) {
	ms, err := Migrations()
	if err != nil {
		return 0, err
	}
	applied, err := migrate.NewMigrator(db, ms).AppliedMigrations(ctx)
	if err != nil {
		return 0, err
	}
	return len(ms.Sorted()) - len(applied), nil
}

// Hash identifies the migration set's content; test templates are keyed by it.
func Hash() (string, error) {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
