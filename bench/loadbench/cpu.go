package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// CPU accounting of a point, read from /proc (Linux; elsewhere the shares
// are unknown and the table shows "–"). Throughput that stops adding up
// when a second server process comes in is bounded by something; on a
// small machine that is usually the CPUs themselves, which only the CPU
// time of everyone involved (the server processes, PostgreSQL, wrk, the
// rest of the machine) can show.

// clockTicks is USER_HZ, the unit of the CPU times in /proc: 100 on every
// Linux architecture (the kernel keeps it fixed for user space whatever
// its own tick rate).
const clockTicks = 100

// procTimes is what a /proc/<pid>/stat says about a process's CPU.
type procTimes struct {
	ppid           int
	utime, stime   int64 // its own, in clock ticks
	cutime, cstime int64 // its exited and waited-for children's
}

// readProcTimes reads /proc/<pid>/stat.
func readProcTimes(pid int) (procTimes, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procTimes{}, err
	}
	return parseProcStat(string(b))
}

// parseProcStat reads the fields after the command name, which is in
// parentheses and may itself hold spaces and parentheses: "pid (comm)
// state ppid ..." with utime, stime, cutime and cstime the 14th to 17th
// fields of the line.
func parseProcStat(s string) (procTimes, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procTimes{}, errors.New("no command name in /proc stat line")
	}
	f := strings.Fields(s[i+1:]) // f[0] is the 3rd field (state)
	if len(f) < 15 {
		return procTimes{}, errors.New("short /proc stat line")
	}
	var t procTimes
	var err error
	num := func(k int) int64 {
		v, perr := strconv.ParseInt(f[k-3], 10, 64)
		if perr != nil && err == nil {
			err = fmt.Errorf("/proc stat field %d: %w", k, perr)
		}
		return v
	}
	t.ppid = int(num(4))
	t.utime, t.stime, t.cutime, t.cstime = num(14), num(15), num(16), num(17)
	return t, err
}

// postmasterPID is the PID in the first line of the cluster's
// postmaster.pid.
func postmasterPID(clusterDir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(clusterDir, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// cpuProbe reads the cumulative CPU time of the server processes and of
// the cluster's PostgreSQL processes.
type cpuProbe struct {
	servers    []int // PIDs of the `server serve` processes
	postmaster int
}

// cpuReading is one read of a cpuProbe, in clock ticks.
type cpuReading struct {
	at        time.Time
	servers   int64
	postgres  int64
	idle, all int64 // the machine's, from /proc/stat, over all CPUs
	err       error
}

func (p cpuProbe) read() cpuReading {
	r := cpuReading{at: time.Now()} // clock: process timing only
	for _, pid := range p.servers {
		// Its own time only: the owner's waited-for children would be
		// PostgreSQL's, counted below.
		t, err := readProcTimes(pid)
		if err != nil {
			r.err = err
			return r
		}
		r.servers += t.utime + t.stime
	}
	r.postgres, r.err = postgresTicks(p.postmaster)
	if r.err == nil {
		r.idle, r.all, r.err = machineTicks()
	}
	return r
}

// postgresTicks is the CPU time of the cluster: the postmaster's own, that
// of its children that have exited (backends come and go), and that of
// its live children (backends, checkpointer, WAL writer, ...), found by
// their parent PID.
func postgresTicks(postmaster int) (int64, error) {
	t, err := readProcTimes(postmaster)
	if err != nil {
		return 0, fmt.Errorf("PostgreSQL's postmaster: %w", err)
	}
	total := t.utime + t.stime + t.cutime + t.cstime
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		c, err := readProcTimes(pid)
		if err != nil || c.ppid != postmaster {
			continue // gone meanwhile, or not a child
		}
		total += c.utime + c.stime
	}
	return total, nil
}

// machineTicks is the idle (idle and iowait) and total CPU time of all
// CPUs, from the first line of /proc/stat.
func machineTicks() (idle, all int64, err error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, errors.New("/proc/stat: no cpu line")
	}
	// user nice system idle iowait irq softirq steal (guest time is
	// already in user and nice).
	for k := 1; k <= 8; k++ {
		v, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: %w", err)
		}
		all += v
		if k == 4 || k == 5 {
			idle += v
		}
	}
	return idle, all, nil
}

// cpuShares is where the machine's CPU time went during a point, each a
// fraction of all its CPUs over the point's wall time.
type cpuShares struct {
	known    bool
	server   float64 // the server processes
	postgres float64 // the cluster's processes
	wrk      float64 // the load generators
	other    float64 // everything else running on the machine
	idle     float64
}

// shares is the CPU use between readings a and b, wrk having used wrkCPU.
func shares(a, b cpuReading, wrkCPU time.Duration) cpuShares {
	wall := b.at.Sub(a.at).Seconds()
	if a.err != nil || b.err != nil || wall <= 0 || b.all <= a.all {
		return cpuShares{}
	}
	capacity := wall * float64(runtime.NumCPU())
	s := cpuShares{known: true,
		server:   float64(b.servers-a.servers) / clockTicks / capacity,
		postgres: float64(b.postgres-a.postgres) / clockTicks / capacity,
		wrk:      wrkCPU.Seconds() / capacity,
		idle:     float64(b.idle-a.idle) / float64(b.all-a.all),
	}
	s.other = max(0, 1-s.idle-s.server-s.postgres-s.wrk)
	return s
}
