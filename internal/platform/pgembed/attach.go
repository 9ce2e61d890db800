package pgembed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// pidFile is the parsed content of a cluster's postmaster.pid, which
// PostgreSQL maintains while running:
//
//	1 PID, 2 data directory, 3 start time, 4 port, 5 first socket directory,
//	6 first listen address, 7 shared memory key, 8 status
//
// Status is "starting", "stopping", "ready" or "standby".
type pidFile struct {
	PID        int
	DataDir    string
	Port       int
	SocketDir  string
	ListenAddr string
	Status     string
}

const pidFileName = "postmaster.pid"

// errBadPIDFile marks a postmaster.pid whose content cannot be parsed.
var errBadPIDFile = errors.New("pgembed: malformed " + pidFileName)

func readPIDFile(path string) (pidFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return pidFile{}, err
	}
	return parsePIDFile(string(b))
}

func parsePIDFile(s string) (pidFile, error) {
	lines := strings.Split(s, "\n")
	line := func(n int) string {
		if n <= len(lines) {
			return strings.TrimSpace(lines[n-1])
		}
		return ""
	}
	var pf pidFile
	pid, err := strconv.Atoi(line(1))
	if err != nil || pid <= 0 {
		return pidFile{}, fmt.Errorf("%w: bad PID %q", errBadPIDFile, line(1))
	}
	pf.PID = pid
	pf.DataDir = line(2)
	pf.Port, _ = strconv.Atoi(line(4))
	pf.SocketDir = line(5)
	pf.ListenAddr = line(6)
	pf.Status = line(8)
	return pf, nil
}

// pidAlive reports whether a process with this PID exists. EPERM means it
// exists but belongs to another user (e.g. the postgres user when we are
// not root), which still counts.
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// postmasterAlive is pidAlive plus, where /proc tells us, a check that the
// process really is a PostgreSQL server (PIDs get reused across reboots and
// container restarts while postmaster.pid persists on disk).
func postmasterAlive(pid int) bool {
	if !pidAlive(pid) {
		return false
	}
	if is, known := processIsPostgres(pid); known {
		return is
	}
	return true
}

// attachWait bounds how long we wait for a live postmaster that is starting
// up or shutting down to settle.
const attachWait = 30 * time.Second

// tryAttach looks for a server already running on clusterDir. It returns:
//   - (inst, nil) when a live, ready server was found and answers: the
//     caller uses it instead of starting another (Owned() == false);
//   - (nil, nil) when nothing runs there; a stale postmaster.pid left by a
//     crashed or killed server is removed so postgres can start cleanly;
//   - (nil, err) when a server is alive but unusable; starting a second
//     postmaster on the same data directory must never happen, so this is
//     an error rather than a fallback.
//
// It must be called with the launcher lock held. root is the data dir.
func tryAttach(ctx context.Context, root string, log *slog.Logger) (*Instance, error) {
	clusterDir := filepath.Join(root, clusterSubdir)
	path := filepath.Join(clusterDir, pidFileName)
	ctx, cancel := context.WithTimeout(ctx, attachWait)
	defer cancel()
	retried := false
	for {
		pf, err := readPIDFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil && !errors.Is(err, errBadPIDFile) {
			return nil, fmt.Errorf("pgembed: read %s: %w", path, err)
		}
		if err != nil {
			// Unparseable: postgres may be mid-write; look once more
			// before treating it as garbage.
			if !retried && clock.Sleep(ctx, 50*time.Millisecond) == nil {
				retried = true
				continue
			}
			log.Warn("removing unreadable postmaster.pid", "path", path, "err", err)
			return nil, removeStale(path)
		}
		if !postmasterAlive(pf.PID) {
			log.Info("removing stale postmaster.pid", "path", path, "pid", pf.PID)
			return nil, removeStale(path)
		}
		if pf.Status == "ready" && pf.Port > 0 {
			inst, err := attach(ctx, root, pf, log)
			if err != nil && diesSoon(ctx, pf.PID) {
				// It was going down (e.g. killed with its owner) while
				// we looked: stale after all.
				log.Info("removing postmaster.pid of a server that just exited", "path", path, "pid", pf.PID)
				return nil, removeStale(path)
			}
			return inst, err
		}
		// Alive but starting up or shutting down: wait for it to settle.
		if err := clock.Sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, fmt.Errorf("pgembed: a PostgreSQL server (pid %d) is running on %s but stayed %q: %w",
				pf.PID, clusterDir, pf.Status, err)
		}
	}
}

// diesSoon reports whether pid exits within a few seconds.
func diesSoon(ctx context.Context, pid int) bool {
	for range 60 {
		if !postmasterAlive(pid) {
			return true
		}
		if clock.Sleep(ctx, 50*time.Millisecond) != nil {
			return false
		}
	}
	return false
}

func removeStale(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("pgembed: remove stale %s: %w", path, err)
	}
	return nil
}

// attach verifies that the running server answers on its TCP port (with the
// data dir's password) and is really serving the cluster of root, then
// returns a non-owned Instance for it.
func attach(ctx context.Context, root string, pf pidFile, log *slog.Logger) (*Instance, error) {
	clusterDir := filepath.Join(root, clusterSubdir)
	password, err := readPassword(root)
	if err != nil {
		return nil, err
	}
	host := hostFor(pf.ListenAddr)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	served, err := probe(pctx, host, pf.Port, password)
	if err != nil {
		return nil, fmt.Errorf("pgembed: a PostgreSQL server (pid %d) is already running on %s "+
			"but does not answer on %s: %w", pf.PID, clusterDir, net.JoinHostPort(host, strconv.Itoa(pf.Port)), err)
	}
	if !sameDir(served, clusterDir) {
		return nil, fmt.Errorf("pgembed: postmaster.pid in %s names pid %d, which serves a different data directory %s",
			clusterDir, pf.PID, served)
	}
	log.Info("attached to running PostgreSQL", "pid", pf.PID, "port", pf.Port, "data_dir", clusterDir)
	return &Instance{host: host, port: pf.Port, password: password, root: root, dataDir: clusterDir}, nil
}

// hostFor maps the first listen_addresses entry to an address to dial.
func hostFor(listen string) string {
	ip := net.ParseIP(listen)
	if ip == nil || ip.IsUnspecified() {
		return "127.0.0.1" // "", "*", "localhost", "0.0.0.0", "::"
	}
	return ip.String()
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
