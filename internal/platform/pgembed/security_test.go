package pgembed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
)

// requireRefused asserts that connecting with connString fails because the
// server refused the credentials (28P01 invalid_password), not for another
// reason such as nothing listening.
func requireRefused(t *testing.T, connString string) {
	t.Helper()
	conn, err := pgx.Connect(testCtx(t), connString)
	if err == nil {
		_ = conn.Close(context.Background())
	}
	require.Error(t, err, "connected without the password")
	var pgErr *pgconn.PgError
	require.True(t, errors.As(err, &pgErr), "not refused by the server: %v", err)
	require.Equal(t, "28P01", pgErr.Code, "%v", err)
}

// socketConnString connects over the unix socket in dir.
func socketConnString(dir string, port int, password string) string {
	s := fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable", dir, port)
	if password != "" {
		s += " password=" + password
	}
	return s
}

// requirePrivate asserts that path has no group or other permission bits.
func requirePrivate(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Zero(t, fi.Mode().Perm()&0o077, "%s is %v: readable by others", path, fi.Mode().Perm())
}

// Finding 4: the port on 127.0.0.1 is open to every local user, so nothing
// gets in without the generated password (kept where only the data dir's
// owner can read it), over TCP or the socket.
func TestOnlyThePasswordGetsIn(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	inst, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })

	pw, err := readPassword(dataDir)
	require.NoError(t, err)
	require.Len(t, pw, 64)
	port := inst.Port()
	sock := filepath.Join(dataDir, socketSubdir)

	requireRefused(t, buildURL("127.0.0.1", port, "", "postgres"))
	requireRefused(t, buildURL("127.0.0.1", port, "not-the-password", "postgres"))
	requireRefused(t, socketConnString(sock, port, ""))
	requireRefused(t, socketConnString(sock, port, "not-the-password"))
	require.Equal(t, 1, queryOne(t, inst.URL("postgres")))
	require.Equal(t, 1, queryOne(t, socketConnString(sock, port, pw)))

	// The configuration actually in force.
	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, inst.URL("postgres"))
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	show := func(name string) string {
		var v string
		require.NoError(t, conn.QueryRow(ctx, "SHOW "+name).Scan(&v))
		return v
	}
	require.Equal(t, "127.0.0.1", show("listen_addresses"))
	require.Equal(t, "0700", show("unix_socket_permissions"))
	rows, err := conn.Query(ctx, `SELECT type, array_to_string(database, ','), coalesce(address, ''),
		coalesce(auth_method, ''), coalesce(error, '') FROM pg_hba_file_rules ORDER BY line_number`)
	require.NoError(t, err)
	var rules []string
	for rows.Next() {
		var typ, db, addr, method, ruleErr string
		require.NoError(t, rows.Scan(&typ, &db, &addr, &method, &ruleErr))
		require.Empty(t, ruleErr)
		require.Equal(t, "scram-sha-256", method, "rule %s %s", typ, addr)
		rules = append(rules, strings.TrimSpace(typ+" "+db+" "+addr))
	}
	require.NoError(t, rows.Err())
	// Replication (a local standby, standby.go) needs the password too.
	require.Equal(t, []string{"local all", "host all 127.0.0.1", "host all ::1", "host replication 127.0.0.1"}, rules)

	// Nothing in the data dir is open to other users.
	for _, p := range []string{"", clusterSubdir, socketSubdir, logFileName, passwordFileName, lockFileName} {
		requirePrivate(t, filepath.Join(dataDir, p))
	}
	requireOtherUserLockedOut(t, filepath.Join(dataDir, passwordFileName), filepath.Join(dataDir, logFileName))

	// The same for a test cluster.
	tmp, err := StartTemp(testCtx(t), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = tmp.Stop() })
	root := filepath.Dir(tmp.DataDir())
	for _, p := range []string{"", clusterSubdir, logFileName, passwordFileName} {
		requirePrivate(t, filepath.Join(root, p))
	}
	requireRefused(t, buildURL("127.0.0.1", tmp.Port(), "", "postgres"))
	require.Equal(t, 1, queryOne(t, tmp.URL("postgres")))
}

// requireOtherUserLockedOut reads the files as the unprivileged "nobody"
// user when this test runs as root (it cannot switch users otherwise; the
// permission bits asserted above are the portable check).
func requireOtherUserLockedOut(t *testing.T, paths ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	for _, p := range paths {
		cmd := exec.Command("cat", p)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}}
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "user nobody could read %s: %s", p, out)
	}
}

// makeOldDataDir builds a data dir as earlier versions of the launcher did:
// world-readable dir and log, initdb --auth=trust, a role without password.
// sql runs in single-user mode on the new cluster.
func makeOldDataDir(t *testing.T, dataDir, sql string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dataDir, 0o755))
	require.NoError(t, os.Chmod(dataDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, logFileName), []byte("old log\n"), 0o644))
	require.NoError(t, os.Chmod(filepath.Join(dataDir, logFileName), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, lockFileName), nil, 0o644))
	require.NoError(t, os.Chmod(filepath.Join(dataDir, lockFileName), 0o644))
	bins, err := FindBinaries()
	require.NoError(t, err)
	ru, err := serverUser()
	require.NoError(t, err)
	c := launchConfig{root: dataDir, bins: bins, ru: ru, forTests: true, log: Options{}.logger()}
	cluster := c.cluster()
	require.NoError(t, os.Mkdir(cluster, 0o700))
	require.NoError(t, ru.giveTo(cluster))
	run := func(bin string, args []string, stdin string) {
		var out bytes.Buffer
		cmd := c.command(bin, args, nil)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Run(), out.String())
		require.NotContains(t, out.String(), "ERROR:")
	}
	run(bins.Initdb, []string{"-D", cluster, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"}, "")
	run(bins.Postgres, []string{"--single", "-D", cluster, "postgres"}, sql)
	require.False(t, hbaIsManaged(cluster))
	b, err := os.ReadFile(filepath.Join(cluster, hbaFileName))
	require.NoError(t, err)
	require.Contains(t, string(b), "trust")
}

// A data dir of an older version (trust, no password, world-readable) is
// upgraded when this version starts its server: the password is required
// from the first connection on, the data is kept, the permissions tightened.
// Deleting the password file later resets the password the same way.
func TestTrustingDataDirIsUpgradedOnStart(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	makeOldDataDir(t, dataDir, "CREATE TABLE kept (v int);\nINSERT INTO kept VALUES (7);\n")

	inst, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	require.True(t, inst.Owned())
	pw, err := readPassword(dataDir)
	require.NoError(t, err)
	require.NotEmpty(t, pw)
	require.True(t, hbaIsManaged(inst.DataDir()))
	requireRefused(t, buildURL("127.0.0.1", inst.Port(), "", "postgres"))
	exec1(t, inst.URL("postgres"), "SELECT v FROM kept")
	for _, p := range []string{"", logFileName, passwordFileName, lockFileName, filepath.Join(clusterSubdir, hbaFileName)} {
		requirePrivate(t, filepath.Join(dataDir, p))
	}
	logBytes, err := os.ReadFile(filepath.Join(dataDir, logFileName))
	require.NoError(t, err)
	require.NotContains(t, string(logBytes), pw)
	require.NotContains(t, string(logBytes), "SCRAM-SHA-256$", "the verifier set on the role is not logged either")
	require.NoError(t, inst.Stop())

	// Reset: the operator deletes the password file while the server is down.
	require.NoError(t, os.Remove(filepath.Join(dataDir, passwordFileName)))
	again, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = again.Stop() })
	pw2, err := readPassword(dataDir)
	require.NoError(t, err)
	require.NotEqual(t, pw, pw2)
	requireRefused(t, buildURL("127.0.0.1", again.Port(), pw, "postgres"))
	exec1(t, again.URL("postgres"), "SELECT v FROM kept")
}

// Finding 5: failed statements leave their values out of postgres.log.
func TestFailedStatementValuesStayOutOfTheLog(t *testing.T) {
	t.Parallel()
	inst, err := StartTemp(testCtx(t), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })
	logPath := filepath.Join(filepath.Dir(inst.DataDir()), logFileName)

	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, inst.URL("postgres"))
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	for name, want := range map[string]string{
		"log_statement": "none", "log_min_error_statement": "panic",
		"log_error_verbosity": "terse", "log_min_messages": "log",
		"log_min_duration_statement": "-1", "log_parameter_max_length_on_error": "0",
	} {
		var got string
		require.NoError(t, conn.QueryRow(ctx, "SHOW "+name).Scan(&got))
		require.Equal(t, want, got, name)
	}

	_, err = conn.Exec(ctx, `CREATE TABLE people (email text UNIQUE, age int CHECK (age > 0))`)
	require.NoError(t, err)
	failing := []struct {
		sql    string
		args   []any
		code   string
		secret string
	}{
		// Unique violation: "DETAIL: Key (email)=(...) already exists" and
		// "STATEMENT: INSERT ..." by default.
		{"INSERT INTO people (email) VALUES ('secret-value-123')", nil, "23505", "secret-value-123"},
		// Check violation: "DETAIL: Failing row contains (...)".
		{"INSERT INTO people VALUES ('secret-row-789', -1)", nil, "23514", "secret-row-789"},
		// The value in the primary message of the error itself.
		{"SELECT 'secret-date-456'::date", nil, "22007", "secret-date-456"},
		// A bind parameter (extended protocol).
		{"INSERT INTO people (email) VALUES ($1)", []any{"secret-param-321"}, "23505", "secret-param-321"},
	}
	for _, f := range failing {
		_, _ = conn.Exec(ctx, f.sql, f.args...) // the first insert of a duplicate succeeds
		_, err := conn.Exec(ctx, f.sql, f.args...)
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &pgErr), "%s: %v", f.sql, err)
		require.Equal(t, f.code, pgErr.Code, f.sql)
	}
	// The log is live: a refused connection is logged (FATAL), after the
	// statements above (a backend writes its log line before answering).
	requireRefused(t, buildURL("127.0.0.1", inst.Port(), "", "postgres"))

	b, err := os.ReadFile(logPath)
	require.NoError(t, err)
	log := string(b)
	require.Contains(t, log, `password authentication failed for user "postgres"`)
	for _, f := range failing {
		require.NotContains(t, log, f.secret)
	}
	require.NotContains(t, log, "STATEMENT:")
	require.NotContains(t, log, "DETAIL:")
}
