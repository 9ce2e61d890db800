package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/pgembed"
)

// backupCommand writes the whole database (the application's tables, the
// job engine's, the server secret kept in the database) to one file in
// pg_dump's custom format. pg_dump reads one snapshot of a repeatable-read
// transaction, so a server may keep running and writing meanwhile: the file
// is the database as it was at one instant.
func backupCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "file to write the backup to (required; written whole or not at all)")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "--out is required")
		return errUsage
	}
	return dbf.withConnection(func(ctx context.Context, target pgTarget) error {
		// Written beside the destination and renamed into place, so an
		// interrupted backup never leaves a truncated file under its name.
		tmp := *out + ".partial"
		defer os.Remove(tmp)
		if err := target.run(ctx, "pg_dump", stderr, "--format=custom", "--file="+tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, *out); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		fmt.Fprintf(stdout, "backed up to %s\n", *out)
		return nil
	})
}

// restoreCommand loads a backup into the database. It refuses a database
// that already holds tables unless --force, which first empties it (drops
// the public schema with everything in it), so that no table of a later
// version is left beside the backup's. The restore itself is one
// transaction: it loads the backup whole or nothing.
func restoreCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "backup file written by `server backup` (required)")
	force := fs.Bool("force", false, "restore over a database that is not empty: first drop everything it holds")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *in == "" {
		fmt.Fprintln(stderr, "--in is required")
		return errUsage
	}
	if _, err := os.Stat(*in); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return dbf.withConnection(func(ctx context.Context, target pgTarget) error {
		tables, err := target.countTables(ctx)
		if err != nil {
			return err
		}
		if tables > 0 {
			if !*force {
				return fmt.Errorf("restore: the database already holds %d tables; stop every server using it and "+
					"pass --force to drop them and restore the backup", tables)
			}
			if err := target.empty(ctx); err != nil {
				return err
			}
		}
		if err := target.run(ctx, "pg_restore", stderr, "--single-transaction", "--exit-on-error", "--no-owner",
			"--dbname="+target.database, *in); err != nil {
			return err
		}
		n, err := target.requeueInterruptedJobs(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "restored %s (%d interrupted jobs will run again)\n", *in, n)
		return nil
	})
}

// pgTarget is the database a backup or a restore works on, and the
// PostgreSQL client programs to do it with.
type pgTarget struct {
	url      string // with the password, for this process's own connections
	database string // the URL without the password, for the client programs
	password string // given to the client programs in their environment
	binDir   string // where pg_dump and pg_restore are; "" looks them up on PATH
}

// withConnection finds the database as every other command does
// (DATABASE_URL, or the embedded cluster in the data dir, started or
// attached to), without migrating it: a backup copies what is there, and
// a restore fills an empty database that `serve` migrates afterwards.
func (d *dbFlags) withConnection(fn func(ctx context.Context, target pgTarget) error) error {
	if d.envErr != nil {
		return d.envErr
	}
	ctx := context.Background()
	raw := os.Getenv("DATABASE_URL")
	binDir := ""
	if raw == "" {
		inst, err := pgembed.Start(ctx, pgembed.Options{DataDir: d.dataDir, Logger: cliLogger()})
		if err != nil {
			return err
		}
		defer inst.Stop() //nolint:errcheck // stops it only when this process started it
		if err := ensureDatabase(ctx, inst.URL("postgres"), embeddedDatabase); err != nil {
			return err
		}
		raw = inst.URL(embeddedDatabase)
	}
	// The client programs of the installation the embedded cluster runs
	// from (the same version as the server), and for DATABASE_URL those of
	// the local installation, else whatever PATH holds.
	if bins, err := pgembed.FindBinaries(); err == nil {
		binDir = bins.Dir
	}
	target, err := newPGTarget(raw, binDir)
	if err != nil {
		return err
	}
	return fn(ctx, target)
}

func newPGTarget(raw, binDir string) (pgTarget, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return pgTarget{}, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	t := pgTarget{url: raw, binDir: binDir}
	if u.User != nil {
		t.password, _ = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	// The password travels in the environment, not on a command line any
	// local user can read in the process list.
	t.database = u.String()
	return t, nil
}

// run runs a PostgreSQL client program against the target; its messages
// go to stderr.
func (t pgTarget) run(ctx context.Context, program string, stderr io.Writer, args ...string) error {
	path := program
	if t.binDir != "" {
		if p := filepath.Join(t.binDir, program); isFile(p) {
			path = p
		}
	}
	if program == "pg_dump" {
		args = append([]string{"--dbname=" + t.database}, args...)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+t.password)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		var notFound *exec.Error
		if errors.As(err, &notFound) {
			return fmt.Errorf("%s not found (install PostgreSQL's client programs, or set PG_BINDIR): %w", program, err)
		}
		return fmt.Errorf("%s: %w", program, err)
	}
	return nil
}

// countTables counts the tables of the database outside PostgreSQL's own
// schemas.
func (t pgTarget) countTables(ctx context.Context) (n int, err error) {
	err = t.withConn(ctx, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables
			WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`).Scan(&n)
	})
	return n, err
}

// empty drops the public schema, where the server keeps every table, and
// makes it again, empty.
func (t pgTarget) empty(ctx context.Context) error {
	return t.withConn(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public"); err != nil {
			return fmt.Errorf("restore --force: empty the database: %w", err)
		}
		return nil
	})
}

// requeueInterruptedJobs makes the jobs that were running when the backup
// was taken available again. The process that ran them does not run
// against the restored database, so none of them will finish; without this
// the job engine would rescue them only after its stuck-job timeout (an
// hour). A webhook delivery interrupted this way is made again: deliveries
// are at least once, and receivers tell repeats apart by the event id.
func (t pgTarget) requeueInterruptedJobs(ctx context.Context) (requeued int64, err error) {
	err = t.withConn(ctx, func(conn *pgx.Conn) error {
		var exists bool
		if err := conn.QueryRow(ctx, "SELECT to_regclass('river_job') IS NOT NULL").Scan(&exists); err != nil || !exists {
			return err
		}
		tag, err := conn.Exec(ctx, `UPDATE river_job SET state = 'available', scheduled_at = now(), attempted_by = NULL
			WHERE state = 'running'`)
		if err != nil {
			return fmt.Errorf("restore: requeue interrupted jobs: %w", err)
		}
		requeued = tag.RowsAffected()
		return nil
	})
	return requeued, err
}

// withConn runs fn on a connection of its own to the target, closed
// after it (the backup and restore commands run no pool).
func (t pgTarget) withConn(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	conn, err := pgx.Connect(ctx, t.url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return fn(conn)
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
