package pgembed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// A standby is a second cluster that streams the primary's write-ahead log
// and replays it: PostgreSQL's own streaming replication. It is made once
// with pg_basebackup (a copy of the primary taken while it runs), started
// with standby.signal in its directory, and told where the primary is on
// every start (primary_conninfo), because the launcher's primary listens
// on a port picked when it starts. It serves read-only queries (hot
// standby) and can be promoted to a primary (Promote).
//
// The standby connects as the primary's superuser with the primary's
// password, read from a passfile in the standby's private data dir: the
// password is on no command line and in no configuration file.

const (
	standbySignal   = "standby.signal" // in the cluster: start in standby mode
	standbyPassFile = "primary.pgpass" // in the data dir: the primary's password, 0600
	// basebackupTimeout bounds pg_basebackup's copy of the primary.
	basebackupTimeout = 5 * time.Minute
	// DefaultStandbyName is the application_name a standby streams under
	// when StandbyOptions.Name is empty: what synchronous_standby_names
	// names on the primary.
	DefaultStandbyName = "standby"
)

// StandbyOptions configures StartStandby and StartTempStandby.
type StandbyOptions struct {
	// DataDir holds the standby's cluster as Options.DataDir holds a
	// primary's (StartStandby; ignored by StartTempStandby). It must not
	// be the primary's.
	DataDir string
	// Name is the standby's application_name on the primary (default
	// DefaultStandbyName): pg_stat_replication shows it, and a primary
	// whose synchronous_standby_names lists it waits for it at commit.
	Name string
	// ForTests starts the standby with the test settings of Options.ForTests.
	ForTests bool
	// Logger receives lifecycle events. May be nil.
	Logger *slog.Logger
}

var standbyNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

func (o StandbyOptions) name() (string, error) {
	if o.Name == "" {
		return DefaultStandbyName, nil
	}
	if !standbyNameRE.MatchString(o.Name) {
		return "", fmt.Errorf("pgembed: standby name %q: lower-case letters, digits and _ only", o.Name)
	}
	return o.Name, nil
}

// StartStandby runs a streaming standby of primary in opts.DataDir: on
// first use the directory is filled with pg_basebackup from the primary;
// afterwards the existing standby is started and catches up. Stop stops it
// like a primary.
func StartStandby(ctx context.Context, primary *Instance, opts StandbyOptions) (*Instance, error) {
	log := Options{Logger: opts.Logger}.logger()
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	root, err := Options{DataDir: opts.DataDir}.dataDir()
	if err != nil {
		return nil, fmt.Errorf("pgembed: standby data dir: %w", err)
	}
	if sameDir(root, primary.root) {
		return nil, fmt.Errorf("pgembed: the standby's data dir %s is the primary's", root)
	}
	ru, unlock, err := takeDataDir(ctx, root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return launchStandby(ctx, primary, opts, launchConfig{root: root, bins: bins, ru: ru, forTests: opts.ForTests, log: log})
}

// StartTempStandby runs a throw-away standby of primary for tests, in a
// fresh directory beside StartTemp's; Stop removes it.
func StartTempStandby(ctx context.Context, primary *Instance, opts StandbyOptions) (*Instance, error) {
	log := Options{Logger: opts.Logger}.logger()
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	ru, err := serverUser()
	if err != nil {
		return nil, err
	}
	root, err := makeTempDir(tempBase(), "standby-", ru)
	if err != nil {
		return nil, err
	}
	inst, err := launchStandby(ctx, primary, opts, launchConfig{root: root, bins: bins, ru: ru, forTests: true, log: log})
	if err != nil {
		_ = os.RemoveAll(root)
		return nil, err
	}
	inst.removeOnStop = append(inst.removeOnStop, root)
	return inst, nil
}

// launchStandby copies the primary when the cluster is missing, then starts
// the standby pointed at the primary's current address.
func launchStandby(ctx context.Context, primary *Instance, opts StandbyOptions, c launchConfig) (*Instance, error) {
	name, err := opts.name()
	if err != nil {
		return nil, err
	}
	if primary.password == "" {
		return nil, errors.New("pgembed: a standby needs a primary with a password (restart the primary with this version first)")
	}
	if err := c.ru.checkTraversable(c.root); err != nil {
		return nil, err
	}
	// The standby's superuser is the primary's (a physical copy): the same
	// password, which the standby's own connections use too.
	if err := writePrivateFile(filepath.Join(c.root, passwordFileName), []byte(primary.password+"\n"), c.ru); err != nil {
		return nil, err
	}
	passFile := filepath.Join(c.root, standbyPassFile)
	pgpass := fmt.Sprintf("%s:%d:*:%s:%s\n", primary.host, primary.port, superuser, primary.password)
	if err := writePrivateFile(passFile, []byte(pgpass), c.ru); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.cluster(), "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := baseBackup(ctx, c, primary, passFile); err != nil {
			return nil, err
		}
	}
	c.password = primary.password
	c.extraArgs = []string{
		"-c", "primary_conninfo=" + conninfo(map[string]string{
			"host": primary.host, "port": strconv.Itoa(primary.port), "user": superuser,
			"passfile": passFile, "application_name": name, "sslmode": "disable",
		}),
		"-c", "hot_standby=on",
		// Queries on the standby report what they read to the primary, so
		// the primary's vacuum does not remove rows they still need.
		"-c", "hot_standby_feedback=on",
		// Promoted, it is a primary of its own that waits for no standby,
		// whatever the copied ALTER SYSTEM settings of its old primary say.
		"-c", "synchronous_standby_names=",
	}
	logf, err := os.OpenFile(c.logPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgembed: open server log: %w", err)
	}
	defer func() { _ = logf.Close() }()
	sockDir, tempSock, err := socketDir(c)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	inst, _, err := startServer(ctx, c, port, sockDir, logf)
	if err != nil {
		if tempSock {
			_ = os.RemoveAll(sockDir)
		}
		return nil, err
	}
	if tempSock {
		inst.removeOnStop = append(inst.removeOnStop, sockDir)
	}
	return inst, nil
}

// baseBackup copies the running primary into the standby's cluster with
// pg_basebackup (the write-ahead log streamed alongside, so the copy is
// consistent by itself), through a staging directory renamed into place
// when complete, and marks it a standby.
func baseBackup(ctx context.Context, c launchConfig, primary *Instance, passFile string) error {
	staging := filepath.Join(c.root, stagingSubdir)
	if err := os.RemoveAll(staging); err != nil {
		return fmt.Errorf("pgembed: remove leftover %s: %w", staging, err)
	}
	if err := os.Mkdir(staging, 0o700); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if err := c.ru.giveTo(staging); err != nil {
		return err
	}
	logf, err := os.OpenFile(c.logPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("pgembed: open server log: %w", err)
	}
	defer func() { _ = logf.Close() }()
	args := []string{"-D", staging, "-h", primary.host, "-p", strconv.Itoa(primary.port), "-U", superuser,
		"-X", "stream", "--checkpoint=fast", "--no-password"}
	if c.forTests {
		args = append(args, "--no-sync")
	}
	c.log.Info("copying the primary for a standby (pg_basebackup)", "dir", c.cluster(), "primary_port", primary.port)
	offset := logSize(logf)
	cmd := c.command(c.bins.tool("pg_basebackup"), args, logf)
	cmd.Env = append(cmd.Env, "PGPASSFILE="+passFile)
	proc, err := childproc.Start(cmd)
	if err != nil {
		return fmt.Errorf("pgembed: run pg_basebackup: %w", err)
	}
	bctx, cancel := context.WithTimeout(ctx, basebackupTimeout)
	defer cancel()
	if err := proc.WaitOrKill(bctx); err != nil {
		_ = os.RemoveAll(staging)
		return fmt.Errorf("pgembed: pg_basebackup failed: %w%s", err, logTail(c.logPath(), offset))
	}
	// The copy holds the primary's postmaster.pid-free files; standby.signal
	// makes it start as a standby, and stays until it is promoted.
	if err := writePrivateFile(filepath.Join(staging, standbySignal), nil, c.ru); err != nil {
		return err
	}
	if err := os.Rename(staging, c.cluster()); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	return nil
}

// conninfo renders libpq key=value pairs, each value quoted.
func conninfo(kv map[string]string) string {
	keys := []string{"host", "port", "user", "passfile", "application_name", "sslmode"}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if v, ok := kv[k]; ok {
			v = strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `'`, `\'`)
			parts = append(parts, k+"='"+v+"'")
		}
	}
	return strings.Join(parts, " ")
}

// Promote turns a standby this process started into a primary with
// `pg_ctl promote` (waiting until it accepts writes): what an operator runs
// when the primary is lost.
func (i *Instance) Promote(ctx context.Context) error {
	if !i.owned {
		return errors.New("pgembed: only the process that started a standby promotes it")
	}
	cmd := exec.CommandContext(ctx, i.bins.tool("pg_ctl"), "promote", "-w", "-t", "120", "-D", i.dataDir)
	cmd.Dir = i.root
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: i.ru.credential()}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgembed: pg_ctl promote: %w: %s", err, strings.TrimSpace(string(out)))
	}
	i.log.Info("promoted standby", "port", i.port, "data_dir", i.dataDir)
	return nil
}

// Kill ends a server this process started at once with SIGKILL to it and
// every backend (its process group): a crash, as a failover drill needs.
// Stop afterwards only removes its temporary directories.
func (i *Instance) Kill() {
	if !i.owned || i.proc.Exited() {
		return
	}
	_ = syscall.Kill(-i.proc.Cmd.Process.Pid, syscall.SIGKILL)
	<-i.proc.Done()
	i.log.Info("killed PostgreSQL", "pid", i.proc.Cmd.Process.Pid, "port", i.port)
}

// replayPoll is how often WaitReplayed asks the standby again.
const replayPoll = 10 * time.Millisecond

// WaitReplayed waits until the standby i has replayed everything primary
// had written when it was called. Only WAL flushed on the primary streams,
// and a test cluster commits without flushing (synchronous_commit off), so
// it first commits a transaction that flushes (synchronous_commit local for
// it): the WAL is then flushed up to its commit, past everything before
// it. PostgreSQL flushes at commit only for a transaction that has an xid
// and wrote WAL of its own before its commit record (a bare
// txid_current() commits asynchronously), hence the temporary table, whose
// catalog rows are WAL written by the transaction itself. Then it asks the
// standby's pg_last_wal_replay_lsn() until it reaches the primary's flush
// position, or ctx ends.
func (i *Instance) WaitReplayed(ctx context.Context, primary *Instance) error {
	p, err := pgx.Connect(ctx, primary.URL("postgres"))
	if err != nil {
		return err
	}
	defer func() { _ = p.Close(context.WithoutCancel(ctx)) }()
	if _, err := p.Exec(ctx, "SET synchronous_commit = local"); err != nil {
		return err
	}
	if err := flushingCommit(ctx, p); err != nil {
		return err
	}
	var target string
	if err := p.QueryRow(ctx, "SELECT pg_current_wal_flush_lsn()::text").Scan(&target); err != nil {
		return err
	}
	s, err := pgx.Connect(ctx, i.URL("postgres"))
	if err != nil {
		return err
	}
	defer func() { _ = s.Close(context.WithoutCancel(ctx)) }()
	for {
		var done bool
		if err := s.QueryRow(ctx, "SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)", target).Scan(&done); err != nil {
			return err
		}
		if done {
			return nil
		}
		if err := clock.Sleep(ctx, replayPoll); err != nil {
			return fmt.Errorf("pgembed: waiting for the standby to replay %s: %w", target, err)
		}
	}
}

// flushingCommit commits, on conn, a transaction that writes WAL of its own,
// so that under synchronous_commit local its commit flushes the WAL up to
// its commit record.
func flushingCommit(ctx context.Context, conn *pgx.Conn) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, "CREATE TEMPORARY TABLE pgembed_flush () ON COMMIT DROP"); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
