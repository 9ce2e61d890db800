//go:build linux

package pgembed

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// setParentDeathSignal makes the kernel SIGKILL the child when the forking
// thread dies. Go applies it after switching credentials in the child, so it
// survives the setuid to the postgres user (the kernel clears it on
// credential changes).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

const tmpfsMagic = 0x01021994

// isTmpfsWithFree reports whether dir is a tmpfs with at least free bytes
// available.
func isTmpfsWithFree(dir string, free uint64) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	return int64(st.Type) == tmpfsMagic && st.Bavail*uint64(st.Bsize) >= free
}

// processIsPostgres reports whether pid is a live (not zombie) process
// running a PostgreSQL server binary. It guards against a stale
// postmaster.pid whose PID was reused by an unrelated process (e.g. after a
// container restart), and against a killed postmaster that is a zombie
// until its new parent (init) reaps it: kill(pid, 0) succeeds on zombies.
// known is false when /proc cannot tell.
func processIsPostgres(pid int) (is, known bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if os.IsNotExist(err) {
			return false, true
		}
		return false, false
	}
	// Format: "pid (comm) state ...", comm may itself contain ')' .
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open || len(s) < end+3 {
		return false, false
	}
	comm, state := s[open+1:end], s[end+2]
	if state == 'Z' || state == 'X' || state == 'x' {
		return false, true
	}
	return comm == "postgres" || comm == "postmaster", true
}
