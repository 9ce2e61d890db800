package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// Statement capture, one shape at a time:
//
//  1. log_statement = 'all' (and, for the parameter values of the
//     extended protocol, log_parameter_max_length = -1 and
//     log_error_verbosity = 'default') is set for the role the server's
//     sessions use, in its database only (ALTER ROLE ... IN DATABASE ...
//     SET), which takes precedence over the launcher's command-line
//     settings but applies when a session starts; so the server's sessions are ended
//     (pg_terminate_backend) and its pool opens new ones; our own session
//     logs through a plain SET;
//  2. one request runs between two marker statements of our session, and
//     the statements the server's sessions logged between the markers are
//     read back from the cluster's log (requestStatements says what is left
//     out); this repeats until two requests in a row agree;
//  3. the settings are reset and the server's sessions ended once more, so
//     none that logs survives into the measurements, which is checked.
//
// The cluster is the run's own, in a temporary data dir removed at the end,
// and its data is made up.

// capturer captures the statements of single requests.
type capturer struct {
	db      *database
	api     *apiClient
	logPath string
	line    *regexp.Regexp // matches a log line, capturing PID and message
	self    string         // our session's PID
	seq     int
}

func newCapturer(ctx context.Context, db *database, api *apiClient) (*capturer, error) {
	path, err := serverLogPath(ctx, db)
	if err != nil {
		return nil, err
	}
	var prefix, self string
	if err := db.conn.QueryRow(ctx, "SELECT current_setting('log_line_prefix'), pg_backend_pid()::text").Scan(&prefix, &self); err != nil {
		return nil, err
	}
	line, err := linePattern(prefix)
	if err != nil {
		return nil, err
	}
	return &capturer{db: db, api: api, logPath: path, line: line, self: self}, nil
}

// serverLogPath is the file PostgreSQL logs to: the logging collector's
// current file when it runs, else the embedded server's stderr log, which
// pgembed keeps next to the cluster (DataDir/postgres.log).
func serverLogPath(ctx context.Context, db *database) (string, error) {
	var current *string
	if err := db.conn.QueryRow(ctx, "SELECT pg_current_logfile()").Scan(&current); err == nil && current != nil {
		p := *current
		if !filepath.IsAbs(p) {
			p = filepath.Join(db.inst.DataDir(), p)
		}
		return p, nil
	}
	p := filepath.Join(filepath.Dir(db.inst.DataDir()), "postgres.log")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("PostgreSQL's log: %w", err)
	}
	return p, nil
}

// attempts bounds how many times a request is captured until two captures
// in a row agree (the first request of a shape may do one-off work).
const attempts = 4

// capture sends requests of s until two in a row ran the same number of
// statements, and returns the last one's statements with the time it
// started (for recognising the ids it minted).
func (c *capturer) capture(ctx context.Context, s shape) (_ captured, started time.Time, err error) {
	roles, err := c.serverRoles(ctx)
	if err != nil {
		return captured{}, time.Time{}, err
	}
	offset, err := fileSize(c.logPath)
	if err != nil {
		return captured{}, time.Time{}, err
	}
	defer func() {
		if rerr := c.setLogging(context.WithoutCancel(ctx), roles, false); rerr != nil {
			err = errors.Join(err, fmt.Errorf("turning statement logging off: %w", rerr))
		} else if err == nil {
			err = c.checkQuiet(ctx, s)
		}
	}()
	if err := c.setLogging(ctx, roles, true); err != nil {
		return captured{}, time.Time{}, err
	}
	var prev, last captured
	for i := range attempts {
		c.seq++
		begin, end := fmt.Sprintf("loadbench-capture-%d-begin", c.seq), fmt.Sprintf("loadbench-capture-%d-end", c.seq)
		if err := c.mark(ctx, begin); err != nil {
			return captured{}, time.Time{}, err
		}
		started = time.Now() // clock: process timing only
		ref, err := c.api.send(ctx, s)
		if err != nil {
			return captured{}, time.Time{}, err
		}
		if err := c.mark(ctx, end); err != nil {
			return captured{}, time.Time{}, err
		}
		entries, err := c.readFrom(offset)
		if err != nil {
			return captured{}, time.Time{}, err
		}
		window, err := between(entries, c.self, begin, end)
		if err != nil {
			return captured{}, time.Time{}, err
		}
		prev, last = last, requestStatements(window, c.self)
		last.ref = ref
		if last.count == 0 {
			return captured{}, time.Time{}, errors.New("no statement of the server was logged during the request")
		}
		if i > 0 && prev.count == last.count {
			return last, started, nil
		}
	}
	logf("warning: %s ran %d then %d statements in its last two captures; using the last", s.slug, prev.count, last.count)
	return last, started, nil
}

// serverRoles are the roles of the server's sessions in its database (all
// client sessions but ours); our own role when it has none open.
func (c *capturer) serverRoles(ctx context.Context) ([]string, error) {
	rows, err := c.db.conn.Query(ctx, `SELECT DISTINCT usename::text FROM pg_stat_activity
		WHERE datname = current_database() AND backend_type = 'client backend'
		  AND pid <> pg_backend_pid() AND usename IS NOT NULL ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	roles, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(roles) > 0 {
		return roles, err
	}
	var self string
	err = c.db.conn.QueryRow(ctx, "SELECT current_user::text").Scan(&self)
	return []string{self}, err
}

// setLogging turns statement logging on or off for roles in the database
// and for our session, then has the server's sessions replaced.
func (c *capturer) setLogging(ctx context.Context, roles []string, on bool) error {
	var stmts []string
	for _, r := range roles {
		alter := "ALTER ROLE " + pgx.Identifier{r}.Sanitize() + " IN DATABASE " + pgx.Identifier{c.db.name}.Sanitize()
		if on {
			// The parameters of extended-protocol statements too: they
			// come on a DETAIL line, which the launcher's terse error
			// verbosity would drop.
			stmts = append(stmts, alter+" SET log_statement = 'all'", alter+" SET log_parameter_max_length = -1",
				alter+" SET log_error_verbosity = 'default'")
		} else {
			stmts = append(stmts, alter+" RESET log_statement", alter+" RESET log_parameter_max_length",
				alter+" RESET log_error_verbosity")
		}
	}
	if on {
		stmts = append(stmts, "SET log_statement = 'all'")
	} else {
		stmts = append(stmts, "RESET log_statement")
	}
	for _, q := range stmts {
		if _, err := c.db.conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return c.recycleServerSessions(ctx)
}

// recycleServerSessions ends the server's database sessions and waits until
// its pool works on new ones: every idle connection is checked before reuse
// once idle for a second (pgxpool's default), and rounds of concurrent
// /readyz requests (which query the database) flush out any dead connection
// that would be used unchecked.
func (c *capturer) recycleServerSessions(ctx context.Context) error {
	// The sessions are listed first and ended in a second statement, so
	// that ours can never be among them whatever order the filter runs in.
	rows, err := c.db.conn.Query(ctx, `SELECT pid FROM pg_stat_activity
		WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`)
	if err != nil {
		return fmt.Errorf("list the server's sessions: %w", err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return fmt.Errorf("list the server's sessions: %w", err)
	}
	if _, err := c.db.conn.Exec(ctx, "SELECT pg_terminate_backend(p) FROM unnest($1::int[]) AS p", pids); err != nil {
		return fmt.Errorf("end the server's sessions: %w", err)
	}
	deadline := time.Now().Add(10 * time.Second) // clock: process timing only
	for {
		var left int
		if err := c.db.conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)", pids).Scan(&left); err != nil {
			return err
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) { // clock: process timing only
			return fmt.Errorf("%d of the server's sessions did not end", left)
		}
		if err := clock.Sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	if err := clock.Sleep(ctx, 1200*time.Millisecond); err != nil {
		return err
	}
	for range 20 {
		if c.readyRound(ctx) {
			return nil
		}
	}
	return errors.New("the server's database connections did not recover after ending its sessions")
}

// readyRound sends 16 concurrent /readyz requests and reports whether all
// answered 200.
func (c *capturer) readyRound(ctx context.Context) bool {
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := true
	for range 16 {
		wg.Go(func() {
			status, _, err := c.api.do(ctx, http.MethodGet, "/readyz", "")
			if err != nil || status != http.StatusOK {
				mu.Lock()
				ok = false
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return ok
}

// checkQuiet makes sure no session of the server still logs statements:
// one more request of s must add no statement to the log.
func (c *capturer) checkQuiet(ctx context.Context, s shape) error {
	offset, err := fileSize(c.logPath)
	if err != nil {
		return err
	}
	if _, err := c.api.send(ctx, s); err != nil {
		return err
	}
	entries, err := c.readFrom(offset)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("statement logging is still on after the capture: %.200s", entries[0].text)
	}
	return nil
}

// mark logs a marker statement from our session.
func (c *capturer) mark(ctx context.Context, token string) error {
	_, err := c.db.conn.Exec(ctx, "SELECT '"+token+"'")
	return err
}

// readFrom parses the log from offset to its end.
func (c *capturer) readFrom(offset int64) ([]logEntry, error) {
	// Each statement is logged before it runs, so by the time our end
	// marker returned everything before it is in the file; give the
	// kernel a moment anyway.
	time.Sleep(20 * time.Millisecond)
	f, err := os.Open(c.logPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return parseLog(strings.ToValidUTF8(string(b), "?"), c.line), nil
}

func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
