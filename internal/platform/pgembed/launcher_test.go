package pgembed

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// newDataDir returns a fresh directory for Start. Not t.TempDir(): as root
// the server runs as the postgres user, which cannot traverse the 0700
// root-owned directory t.TempDir() creates. It is where the test clusters
// are (TempDir: tmpfs when it has room), since these clusters run with
// fsync on.
func newDataDir(t *testing.T) string {
	t.Helper()
	dir, err := TempDir("launcher-test-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return filepath.Join(dir, "data")
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// queryOne connects to url and returns the result of SELECT 1.
func queryOne(t *testing.T, url string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT 1").Scan(&n))
	return n
}

func exec1(t *testing.T, url, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	_, err = conn.Exec(ctx, sql)
	require.NoError(t, err)
}

func requirePortClosed(t *testing.T, port int) {
	t.Helper()
	poll.Until(t, fmt.Sprintf("port %d to refuse connections", port), func() bool {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second)
		if err == nil {
			_ = c.Close()
			return false
		}
		return true
	})
}

// deadPID returns the PID of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	pid := cmd.ProcessState.Pid()
	require.False(t, pidAlive(pid))
	return pid
}

func TestStartTemp(t *testing.T) {
	t.Parallel()
	inst, err := StartTemp(testCtx(t), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })

	require.True(t, inst.Owned())
	require.NotZero(t, inst.Port())
	pw, err := readPassword(filepath.Dir(inst.DataDir()))
	require.NoError(t, err)
	require.Len(t, pw, 64)
	require.Equal(t, fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres?sslmode=disable", pw, inst.Port()), inst.URL("postgres"))
	require.Equal(t, 1, queryOne(t, inst.URL("postgres")))

	root := filepath.Dir(inst.DataDir())
	require.Equal(t, tempBase(), filepath.Dir(root))
	require.True(t, strings.HasPrefix(filepath.Base(root), fmt.Sprintf("%s%d-", tempPrefix, os.Getpid())))

	// ForTests settings are applied.
	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, inst.URL("postgres"))
	require.NoError(t, err)
	var fsync string
	require.NoError(t, conn.QueryRow(ctx, "SHOW fsync").Scan(&fsync))
	require.NoError(t, conn.Close(ctx))
	require.Equal(t, "off", fsync)

	require.NoError(t, inst.Stop())
	require.NoError(t, inst.Stop(), "Stop is idempotent")
	requirePortClosed(t, inst.Port())
	require.NoDirExists(t, root, "StartTemp's directory is removed on Stop")
}

func TestStartSecondAttaches(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)

	owner, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = owner.Stop() })
	require.True(t, owner.Owned())
	require.FileExists(t, filepath.Join(dataDir, "pg", "PG_VERSION"))
	require.FileExists(t, filepath.Join(dataDir, logFileName))

	attached, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	require.False(t, attached.Owned())
	require.Equal(t, owner.Port(), attached.Port())
	require.Equal(t, owner.URL("x"), attached.URL("x"))
	require.Equal(t, 1, queryOne(t, attached.URL("postgres")))

	// Stopping an attached instance leaves the owner's server alone.
	require.NoError(t, attached.Stop())
	require.Equal(t, 1, queryOne(t, owner.URL("postgres")))

	require.NoError(t, owner.Stop())
	requirePortClosed(t, owner.Port())
	require.NoFileExists(t, filepath.Join(dataDir, "pg", pidFileName))
}

func TestStartKeepsDataAcrossRestarts(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)

	first, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	exec1(t, first.URL("postgres"), "CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)")
	require.NoError(t, first.Stop())

	second, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = second.Stop() })
	require.True(t, second.Owned())

	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, second.URL("postgres"))
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()
	var v int
	require.NoError(t, conn.QueryRow(ctx, "SELECT v FROM kept").Scan(&v))
	require.Equal(t, 7, v)
}

func TestStalePIDFileIsRecovered(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	first, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	require.NoError(t, first.Stop())

	// A pid file as left by a server that died, with a PID nobody has.
	pidPath := filepath.Join(dataDir, "pg", pidFileName)
	stale := fmt.Sprintf("%d\n%s\n1700000000\n%d\n%s\n127.0.0.1\n  5432001    131072\nready   \n",
		deadPID(t), filepath.Join(dataDir, "pg"), first.Port(), filepath.Join(dataDir, "run"))
	require.NoError(t, os.WriteFile(pidPath, []byte(stale), 0o600))

	inst, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })
	require.True(t, inst.Owned(), "a stale pid file must not be mistaken for a running server")
	require.Equal(t, 1, queryOne(t, inst.URL("postgres")))
}

func TestKilledServerIsRecovered(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	first, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	exec1(t, first.URL("postgres"), "CREATE TABLE survived (v int); INSERT INTO survived VALUES (1)")

	// Simulate a crash: SIGKILL leaves postmaster.pid behind.
	require.NoError(t, first.proc.Cmd.Process.Kill())
	<-first.proc.Done()
	require.FileExists(t, filepath.Join(dataDir, "pg", pidFileName))

	second, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = second.Stop() })
	require.True(t, second.Owned())
	exec1(t, second.URL("postgres"), "SELECT v FROM survived")
	require.NoError(t, first.Stop(), "stopping an instance whose server already died is fine")
}

func TestConcurrentStartsShareOneServer(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	const n = 4
	insts := make([]*Instance, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { insts[i], errs[i] = Start(testCtx(t), Options{DataDir: dataDir}) })
	}
	wg.Wait()
	owned := 0
	for i := range n {
		require.NoError(t, errs[i])
		require.Equal(t, insts[0].Port(), insts[i].Port())
		if insts[i].Owned() {
			owned++
			t.Cleanup(func() { _ = insts[i].Stop() })
		}
	}
	require.Equal(t, 1, owned, "exactly one launcher starts the server")
}

func TestNonEmptyNonClusterDirIsRejected(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dataDir, "pg"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, "pg", "notes.txt"), []byte("mine"), 0o644))
	_, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.ErrorContains(t, err, "not a PostgreSQL cluster")
}

func TestSweepStaleRemovesDeadOwnersOnly(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dead := filepath.Join(base, fmt.Sprintf("%s%d-abc", tempPrefix, deadPID(t)))
	mine := filepath.Join(base, fmt.Sprintf("%s%d-def", tempPrefix, os.Getpid()))
	alive := filepath.Join(base, fmt.Sprintf("%s%d-ghi", tempPrefix, os.Getppid()))
	other := filepath.Join(base, "pgembedtest-123-x")
	for _, d := range []string{dead, mine, alive, other} {
		require.NoError(t, os.MkdirAll(filepath.Join(d, "pg"), 0o755))
	}
	sweepStale(base, Options{}.logger())
	require.NoDirExists(t, dead)
	require.DirExists(t, mine)
	require.DirExists(t, alive)
	require.DirExists(t, other)
}

// TestServerDiesWithItsParent starts a server from a child process (this
// test binary re-executed), SIGKILLs that child, and checks that the
// parent-death signal took the server down too. The next StartTemp-style
// sweep then deletes the dead child's directory.
func TestServerDiesWithItsParent(t *testing.T) {
	t.Parallel()
	port, dir, kill := startHelper(t, "")
	pw, err := readPassword(dir)
	require.NoError(t, err)
	require.Equal(t, 1, queryOne(t, buildURL("127.0.0.1", port, pw, "postgres")))

	kill()
	requirePortClosed(t, port)
	poll.Until(t, "the stale temp cluster "+dir+" to be swept", func() bool {
		sweepStale(filepath.Dir(dir), Options{}.logger())
		_, err := os.Stat(dir)
		return os.IsNotExist(err)
	})
}

// TestAttachAcrossProcesses is the CLI situation: a `serve` process owns the
// server and `migrate` starts next to it.
func TestAttachAcrossProcesses(t *testing.T) {
	t.Parallel()
	dataDir := newDataDir(t)
	port, _, kill := startHelper(t, dataDir)

	attached, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	require.False(t, attached.Owned())
	require.Equal(t, port, attached.Port())
	require.Equal(t, 1, queryOne(t, attached.URL("postgres")))
	require.NoError(t, attached.Stop())
	require.Equal(t, 1, queryOne(t, attached.URL("postgres")), "Stop on an attached instance is a no-op")

	// The owner dies without cleaning up; its server goes with it and the
	// next launcher takes over the data directory.
	kill()
	requirePortClosed(t, port)
	inst, err := Start(testCtx(t), Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })
	require.True(t, inst.Owned())
	require.Equal(t, 1, queryOne(t, inst.URL("postgres")))
}

// startHelper re-executes the test binary as a separate process that starts
// a server (Start on dataDir, or StartTemp when empty) and reports its port
// and directory. kill SIGKILLs that process.
func startHelper(t *testing.T, dataDir string) (port int, dir string, kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PGEMBED_TEST_HELPER=1", "PGEMBED_TEST_HELPER_DATADIR="+dataDir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	kill = func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
	t.Cleanup(kill)

	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "READY %d %s", &port, &dir); err == nil {
			break
		}
	}
	require.NotZero(t, port, "helper did not report a running server")
	return port, dir, kill
}

// TestMain doubles as the child side of TestServerDiesWithItsParent: with
// PGEMBED_TEST_HELPER=1 the test binary starts a server, reports it and
// waits to be killed instead of running tests.
func TestMain(m *testing.M) {
	if os.Getenv("PGEMBED_TEST_HELPER") == "1" {
		var inst *Instance
		var err error
		if dir := os.Getenv("PGEMBED_TEST_HELPER_DATADIR"); dir != "" {
			inst, err = Start(context.Background(), Options{DataDir: dir})
		} else {
			inst, err = StartTemp(context.Background(), Options{})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("READY %d %s\n", inst.Port(), filepath.Dir(inst.DataDir()))
		time.Sleep(time.Hour) // until the parent SIGKILLs us
		os.Exit(1)
	}
	os.Exit(m.Run())
}
