package pgembed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// Layout of a data directory (Options.DataDir or the StartTemp directory).
const (
	clusterSubdir = "pg"            // the PostgreSQL cluster (-D)
	stagingSubdir = "pg.initdb"     // initdb target, renamed to clusterSubdir when complete
	socketSubdir  = "run"           // unix_socket_directories
	logFileName   = "postgres.log"  // server and initdb output (appended)
	lockFileName  = "launcher.lock" // flock serializing concurrent Start calls
)

const (
	// readyTimeout bounds initdb and, separately, server start-up
	// (start-up includes crash recovery after an unclean stop).
	readyTimeout = 2 * time.Minute
	// maxSocketDirLen keeps "<dir>/.s.PGSQL.<port>" within the 107-byte
	// sun_path limit; longer data dirs get a socket dir in os.TempDir().
	maxSocketDirLen = 80
	// portAttempts bounds retries when the port we picked was taken
	// between probing it and postgres binding it.
	portAttempts = 5
	// testMaxConnections: tests open many pools in parallel.
	testMaxConnections = 300
)

// Start runs PostgreSQL on the persistent cluster in opts.DataDir/pg,
// creating the cluster with initdb on first use, or attaches to the server
// another process already runs there (see the package doc). ctx bounds
// start-up only; the server keeps running until Stop or until this process
// exits (it is killed with us, see process).
func Start(ctx context.Context, opts Options) (*Instance, error) {
	log := opts.logger()
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	root, err := opts.dataDir()
	if err != nil {
		return nil, fmt.Errorf("pgembed: data dir: %w", err)
	}
	ru, unlock, err := takeDataDir(ctx, root)
	if err != nil {
		return nil, err
	}
	defer unlock()

	inst, err := tryAttach(ctx, root, log)
	if err != nil || inst != nil {
		return inst, err
	}
	return launch(ctx, launchConfig{root: root, bins: bins, ru: ru, forTests: opts.ForTests, log: log})
}

// takeDataDir makes root a private data dir the server user may use (see
// ensurePrivateDir) and takes its launcher lock, which the caller releases
// with unlock once the server is started or attached.
func takeDataDir(ctx context.Context, root string) (ru *runAs, unlock func(), err error) {
	if ru, err = serverUser(); err != nil {
		return nil, nil, err
	}
	if err := mkdirAllTraversable(filepath.Dir(root)); err != nil {
		return nil, nil, err
	}
	if err := ensurePrivateDir(root, ru); err != nil {
		return nil, nil, err
	}
	if unlock, err = lockFile(ctx, filepath.Join(root, lockFileName)); err != nil {
		return nil, nil, err
	}
	return ru, unlock, nil
}

// StartTemp runs a throw-away PostgreSQL tuned for tests (ForTests implied,
// opts.DataDir ignored) in a fresh directory, on /dev/shm when it is a tmpfs
// with room to spare, else in os.TempDir(). Stop removes the directory.
// Directories left by earlier runs that died without cleaning up are swept
// first.
func StartTemp(ctx context.Context, opts Options) (*Instance, error) {
	log := opts.logger()
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	ru, err := serverUser()
	if err != nil {
		return nil, err
	}
	base := tempBase()
	sweepStale(base, log)
	if base != os.TempDir() {
		sweepStale(os.TempDir(), log)
	}
	root, err := makeTempDir(base, "", ru)
	if err != nil {
		return nil, err
	}
	inst, err := launch(ctx, launchConfig{root: root, bins: bins, ru: ru, forTests: true, log: log,
		maxConnections: opts.MaxConnections})
	if err != nil {
		_ = os.RemoveAll(root)
		return nil, err
	}
	inst.removeOnStop = append(inst.removeOnStop, root)
	return inst, nil
}

type launchConfig struct {
	root     string // data dir: holds the cluster, socket dir and log
	bins     Binaries
	ru       *runAs
	forTests bool
	// maxConnections replaces testMaxConnections when positive.
	maxConnections int
	log            *slog.Logger
	password       string // the superuser's, set by launch once known
	// extraArgs are further server settings (a standby's primary_conninfo).
	extraArgs []string
}

func (c launchConfig) cluster() string { return filepath.Join(c.root, clusterSubdir) }
func (c launchConfig) logPath() string { return filepath.Join(c.root, logFileName) }

// launch initializes the cluster if needed and starts a postmaster we own.
func launch(ctx context.Context, c launchConfig) (*Instance, error) {
	if err := c.ru.checkTraversable(c.root); err != nil {
		return nil, err
	}
	// Only this process's user (and root) may read the log: it is written
	// through this descriptor, so the server user needs no access to it.
	// Chmod also tightens a log an older version created world-readable.
	logf, err := os.OpenFile(c.logPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgembed: open server log: %w", err)
	}
	// The children get their own descriptor at fork; ours is not needed after.
	defer func() { _ = logf.Close() }()
	if err := logf.Chmod(0o600); err != nil {
		return nil, fmt.Errorf("pgembed: chmod server log: %w", err)
	}

	pw, pwCreated, err := loadOrCreatePassword(c.root, c.ru)
	if err != nil {
		return nil, err
	}
	fresh, err := ensureCluster(ctx, c, logf)
	if err != nil {
		return nil, err
	}
	if err := ensureAuth(ctx, c, pw, pwCreated, fresh); err != nil {
		return nil, err
	}
	c.password = pw
	sockDir, tempSock, err := socketDir(c)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for range portAttempts {
		port, err := freePort()
		if err != nil {
			lastErr = err
			break
		}
		inst, retry, err := startServer(ctx, c, port, sockDir, logf)
		if err == nil {
			if tempSock {
				inst.removeOnStop = append(inst.removeOnStop, sockDir)
			}
			return inst, nil
		}
		lastErr = err
		if !retry {
			break
		}
		c.log.Debug("retrying PostgreSQL start", "err", err)
		if err := clock.Sleep(ctx, 100*time.Millisecond); err != nil {
			break
		}
	}
	if tempSock {
		_ = os.RemoveAll(sockDir)
	}
	return nil, lastErr
}

// ensureCluster runs initdb unless the cluster exists (has PG_VERSION), so a
// persistent data dir survives restarts; fresh reports that it ran. initdb
// writes to a staging directory that is renamed into place only on success:
// an initdb interrupted half-way never leaves a broken cluster that later
// starts would trip over. The superuser gets the password of the data dir's
// password file, and scram-sha-256 authentication from the start.
func ensureCluster(ctx context.Context, c launchConfig, logf *os.File) (fresh bool, _ error) {
	cluster := c.cluster()
	if _, err := os.Stat(filepath.Join(cluster, "PG_VERSION")); err == nil {
		if c.ru != nil {
			// E.g. created by a non-root run, or restored from a backup:
			// the server refuses a data directory it does not own.
			if owned, err := c.ru.owns(cluster); err == nil && !owned {
				c.log.Info("handing existing cluster to the postgres user", "dir", cluster)
				if err := c.ru.giveTo(cluster); err != nil {
					return false, err
				}
			}
		}
		return false, nil
	}
	switch entries, err := os.ReadDir(cluster); {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return false, fmt.Errorf("pgembed: %w", err)
	case len(entries) > 0:
		return false, fmt.Errorf("pgembed: %s exists but is not a PostgreSQL cluster (no PG_VERSION); move it away", cluster)
	default:
		if err := os.Remove(cluster); err != nil {
			return false, fmt.Errorf("pgembed: %w", err)
		}
	}

	staging := filepath.Join(c.root, stagingSubdir)
	if err := os.RemoveAll(staging); err != nil {
		return false, fmt.Errorf("pgembed: remove leftover %s: %w", staging, err)
	}
	if err := os.Mkdir(staging, 0o700); err != nil {
		return false, fmt.Errorf("pgembed: %w", err)
	}
	if err := c.ru.giveTo(staging); err != nil {
		return false, err
	}
	args := []string{"-D", staging, "-U", superuser,
		"--auth-local=scram-sha-256", "--auth-host=scram-sha-256",
		"--pwfile=" + filepath.Join(c.root, passwordFileName),
		"-E", "UTF8", "--locale=C"}
	if c.forTests {
		args = append(args, "--no-sync")
	}
	c.log.Info("initializing PostgreSQL cluster", "dir", cluster)
	began := time.Now() // clock: process timing only, not domain time
	offset := logSize(logf)
	cmd := c.command(c.bins.Initdb, args, logf)
	proc, err := childproc.Start(cmd)
	if err != nil {
		return false, fmt.Errorf("pgembed: run initdb: %w", err)
	}
	ictx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	err = proc.WaitOrKill(ictx)
	if err != nil {
		_ = os.RemoveAll(staging)
		return false, fmt.Errorf("pgembed: initdb failed: %w%s", err, logTail(c.logPath(), offset))
	}
	if err := os.Rename(staging, cluster); err != nil {
		return false, fmt.Errorf("pgembed: %w", err)
	}
	c.log.Info("initialized PostgreSQL cluster", "dir", cluster, "took", time.Since(began))
	return true, nil
}

// socketDir returns the unix socket directory: DataDir/run when the path is
// short enough, else a temp dir removed on Stop (temp reports that). It is
// owned by the server user, which must create the socket in it, and private
// to it (0700).
func socketDir(c launchConfig) (dir string, temp bool, err error) {
	dir = filepath.Join(c.root, socketSubdir)
	if len(dir) <= maxSocketDirLen {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return "", false, fmt.Errorf("pgembed: %w", err)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", false, fmt.Errorf("pgembed: %w", err)
		}
		return dir, false, c.ru.giveTo(dir)
	}
	sweepStale(os.TempDir(), c.log)
	if dir, err = makeTempDir(os.TempDir(), "sock-", c.ru); err != nil {
		return "", false, err
	}
	if err := c.ru.giveTo(dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", false, err
	}
	return dir, true, nil
}

// startServer starts one postmaster on port and waits until it is ready.
// retry reports a failure worth retrying: the port was grabbed by someone
// else meanwhile, or a just-killed predecessor's backends still hold the
// shared memory segment for a moment.
func startServer(ctx context.Context, c launchConfig, port int, sockDir string, logf *os.File) (_ *Instance, retry bool, _ error) {
	args := []string{
		"-D", c.cluster(),
		"-p", strconv.Itoa(port),
		// Loopback only; every connection needs the password (pg_hba.conf,
		// see auth.go), and the socket is private to the server user on
		// top of its private directory.
		"-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=" + quoteGUCListItem(sockDir),
		"-c", "unix_socket_permissions=0700",
		"-c", "password_encryption=scram-sha-256",
	}
	args = append(args, logPrivacySettings()...)
	args = append(args, c.extraArgs...)
	if c.forTests {
		maxConns := testMaxConnections
		if c.maxConnections > 0 {
			maxConns = c.maxConnections
		}
		args = append(args,
			"-c", "fsync=off",
			"-c", "synchronous_commit=off",
			"-c", "full_page_writes=off",
			"-c", "max_connections="+strconv.Itoa(maxConns),
		)
	}
	began := time.Now() // clock: process timing only, not domain time
	offset := logSize(logf)
	proc, err := childproc.Start(c.command(c.bins.Postgres, args, logf))
	if err != nil {
		return nil, false, fmt.Errorf("pgembed: run postgres: %w", err)
	}
	pid := proc.Cmd.Process.Pid
	kill := func() {
		_ = proc.Cmd.Process.Kill()
		_ = proc.Wait()
	}

	rctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if err := waitReady(rctx, c.cluster(), proc); err != nil {
		kill()
		tail := logTail(c.logPath(), offset)
		retry := strings.Contains(tail, "Address already in use") ||
			strings.Contains(tail, "pre-existing shared memory block")
		return nil, retry, fmt.Errorf("pgembed: start postgres: %w%s", err, tail)
	}
	if _, err := probe(rctx, "127.0.0.1", port, c.password); err != nil {
		kill()
		return nil, false, fmt.Errorf("pgembed: PostgreSQL started but cannot be queried: %w", err)
	}
	c.log.Info("started PostgreSQL", "pid", pid, "port", port, "data_dir", c.cluster(), "took", time.Since(began))
	return &Instance{
		host:     "127.0.0.1",
		port:     port,
		password: c.password,
		root:     c.root,
		dataDir:  c.cluster(),
		owned:    true,
		proc:     proc,
		log:      c.log,
		bins:     c.bins,
		ru:       c.ru,
	}, false, nil
}

// command builds an initdb/postgres invocation: output appended to the log
// file instead of our stdout, run as the server user when we are root, and
// from a working directory that user can access (initdb fails with "could
// not identify current directory" when started from e.g. /root).
func (c launchConfig) command(bin string, args []string, logf *os.File) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = c.root
	cmd.Stdout = logf
	cmd.Stderr = logf
	// C messages keep the log greppable (and the retry detection working).
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = childSysProcAttr(c.ru.credential())
	return cmd
}

// waitReady polls postmaster.pid until the postmaster we started marks
// itself "ready" (line 8), or "standby" for a hot standby that accepts
// read-only connections — the same signal pg_ctl -w uses — failing fast if
// the process exits first.
func waitReady(ctx context.Context, cluster string, proc *childproc.Process) error {
	path := filepath.Join(cluster, pidFileName)
	pid := proc.Cmd.Process.Pid
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if pf, err := readPIDFile(path); err == nil && pf.PID == pid && (pf.Status == "ready" || pf.Status == "standby") {
			return nil
		}
		select {
		case <-proc.Done():
			return fmt.Errorf("postgres exited before becoming ready (%v)", proc.Wait())
		case <-ctx.Done():
			return fmt.Errorf("waiting for postgres to become ready: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// freePort asks the kernel for a free loopback port. There is a window
// between closing the probe listener and postgres binding the port; launch
// retries when it loses that race.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgembed: find a free port: %w", err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// quoteGUCListItem quotes a directory for a list-valued setting such as
// unix_socket_directories, where commas and spaces separate items.
func quoteGUCListItem(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func logSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

// logTail returns what was appended to the log after offset (at most the
// last 4 KiB), formatted for appending to an error message.
func logTail(path string, offset int64) string {
	const maxTail = 4 << 10
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	if fi, err := f.Stat(); err == nil && fi.Size()-offset > maxTail {
		offset = fi.Size() - maxTail
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	return "\n--- " + path + " ---\n" + s
}
