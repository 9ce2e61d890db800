package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/pgembed"
)

// appName names our own session in pg_stat_activity.
const appName = "loadbench"

// database is the running server's embedded PostgreSQL, reached the way the
// server's own CLI reaches it: pgembed.Start on the same data dir attaches
// to the postmaster the server started (and never starts a second one).
type database struct {
	inst *pgembed.Instance
	name string    // the application database
	url  string    // connection URL of name, for pgbench
	conn *pgx.Conn // our session (application_name loadbench)
}

// attachDatabase attaches to the server's database in dataDir. The server
// must be ready: if nothing runs there, pgembed would start a server, which
// is refused.
func attachDatabase(ctx context.Context, dataDir, name string) (*database, error) {
	inst, err := pgembed.Start(ctx, pgembed.Options{DataDir: dataDir})
	if err != nil {
		return nil, fmt.Errorf("attach to the server's PostgreSQL: %w", err)
	}
	if inst.Owned() {
		_ = inst.Stop()
		return nil, errors.New("the server's PostgreSQL is not running in its data dir")
	}
	if name == "" {
		if name, err = applicationDatabase(ctx, inst.URL("postgres")); err != nil {
			return nil, err
		}
	}
	url := inst.URL(name)
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = appName
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", name, err)
	}
	return &database{inst: inst, name: name, url: url, conn: conn}, nil
}

// applicationDatabase is the cluster's only database that is not one of
// PostgreSQL's own (the server keeps one, "payments" today).
func applicationDatabase(ctx context.Context, adminURL string) (string, error) {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres' ORDER BY datname")
	if err != nil {
		return "", err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	if len(names) != 1 {
		return "", fmt.Errorf("cannot tell the server's database among %v; pass -database", names)
	}
	return names[0], nil
}

func (d *database) close() {
	if d != nil {
		_ = d.conn.Close(context.Background())
		_ = d.inst.Stop() // attached: a no-op, the server owns it
	}
}

// version is the server's PostgreSQL version.
func (d *database) version(ctx context.Context) string {
	var v string
	if err := d.conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "?"
	}
	return v
}

// findPgbench locates pgbench next to the PostgreSQL server binaries the
// embedded database runs (Debian ships it in the server package), else on
// PATH.
func findPgbench() (string, error) {
	var tried []string
	if bins, err := pgembed.FindBinaries(); err == nil {
		p := filepath.Join(bins.Dir, "pgbench")
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
		tried = append(tried, p)
	}
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	tried = append(tried, "pgbench on PATH")
	return "", fmt.Errorf("pgbench not found (looked at %v); it ships with Debian's postgresql package "+
		"(make loadbench installs it)", tried)
}
