package pgembed

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
)

// tempPrefix names the temporary directories this package creates, as
// tempPrefix<owner pid>-<random>. Embedding the owner's PID lets later runs
// find and delete what crashed runs left behind (a killed `go test` never
// runs its cleanup; on /dev/shm that leak would be RAM).
const tempPrefix = "pgembed-"

var tempNameRE = regexp.MustCompile(`^` + regexp.QuoteMeta(tempPrefix) + `(\d+)-`)

// shmDir and minShmFree: a cluster on tmpfs makes initdb and tests much
// faster, but only if there is room (shared memory segments use it too).
const (
	shmDir     = "/dev/shm"
	minShmFree = 1 << 30
)

// tempBase picks the parent directory for temporary clusters.
func tempBase() string {
	if isTmpfsWithFree(shmDir, minShmFree) {
		return shmDir
	}
	return os.TempDir()
}

// TempDir creates a fresh directory for a data dir that tests give the
// CLI (--data-dir): where StartTemp puts its clusters (tmpfs when it has
// room, where initdb, migrations and CREATE DATABASE run several times
// faster than on disk) and named as they are, so a run killed before its
// cleanup has the directory swept by a later one. kind ends its name.
func TempDir(kind string) (string, error) {
	dir, err := os.MkdirTemp(tempBase(), fmt.Sprintf("%s%d-%s", tempPrefix, os.Getpid(), kind))
	if err != nil {
		return "", fmt.Errorf("pgembed: create temp dir: %w", err)
	}
	return dir, nil
}

// makeTempDir creates a fresh, private (0700) tempPrefix<pid>-* directory in
// base. When the server runs as another user (we are root) the directory
// is given to that user so it can reach the cluster inside; root still can.
func makeTempDir(base, kind string, ru *runAs) (string, error) {
	dir, err := os.MkdirTemp(base, fmt.Sprintf("%s%d-%s", tempPrefix, os.Getpid(), kind))
	if err != nil {
		return "", fmt.Errorf("pgembed: create temp dir: %w", err)
	}
	if err := ensurePrivateDir(dir, ru); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// sweepStale deletes temp directories in base whose owning process is dead.
// If such a directory still holds a running postmaster (its owner died
// without the parent-death signal firing, e.g. on a platform without it),
// that orphan is killed first: nobody can reach or stop it anymore.
// Directories of live processes, and anything we cannot parse or remove
// (e.g. another user's), are left alone.
func sweepStale(base string, log *slog.Logger) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := tempNameRE.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || pidAlive(pid) {
			continue
		}
		dir := filepath.Join(base, e.Name())
		cluster := filepath.Join(dir, clusterSubdir)
		if pf, err := readPIDFile(filepath.Join(cluster, pidFileName)); err == nil &&
			postmasterAlive(pf.PID) && sameDir(pf.DataDir, cluster) {
			log.Warn("killing orphaned PostgreSQL of a dead process", "pid", pf.PID, "dir", dir)
			_ = syscall.Kill(pf.PID, syscall.SIGKILL)
		}
		if err := os.RemoveAll(dir); err != nil {
			log.Debug("could not remove stale temp dir", "dir", dir, "err", err)
			continue
		}
		log.Info("removed stale temp cluster", "dir", dir, "owner_pid", pid)
	}
}
