package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// The multi-process section answers whether throughput adds up when more
// `server serve` processes share one database, until PostgreSQL is the
// bound. The extra processes are started like the first, with the same
// data dir: the embedded PostgreSQL is already running there, so they
// attach to it (pgembed.Start never starts a second postmaster on a data
// dir; the first process keeps owning it). The load stays the same in
// total (multiConns connections, loadThreads wrk threads) and is split
// evenly, one wrk per process, all at once; what changes is only how many
// server processes answer it. CPU shares are recorded for each point (see
// cpu.go), so that a machine with too few CPUs for one more process shows
// as such.

// multiConns is the section's connections, in total over the processes.
const multiConns = 32

// warmRequests are sent to every process before a shape is measured (its
// pool's connections, credential cache and prepared statements).
const warmRequests = 20

// multiSetup is what the section needs of the run.
type multiSetup struct {
	bin, dataDir, work string
	first              *server // the process that owns the database
	clusterDir         string  // PostgreSQL's data dir (its postmaster.pid)
	key                string  // the merchant's secret key
	shapes             []shape
}

// multiPoint is one shape served by some processes.
type multiPoint struct {
	processes int
	conns     []int         // per process
	rps       float64       // summed over the wrk runs
	p99       time.Duration // the worst of them
	cpu       cpuShares
}

// multiRow is one shape at every process count.
type multiRow struct {
	label  string
	points []multiPoint
}

// multiReport is the section.
type multiReport struct {
	conns int
	cpus  int
	rows  []multiRow
}

// multiCounts is the process counts measured: those asked for, with one
// process as the baseline; none when no count is above one.
func multiCounts(asked []int) []int {
	if slices.Max(asked) < 2 {
		return nil
	}
	counts := append([]int{1}, asked...)
	slices.Sort(counts)
	return slices.Compact(counts)
}

// multiProcess starts the extra processes, measures every shape at every
// count and stops the extra processes again before it returns.
func (b bench) multiProcess(ctx context.Context, m multiSetup, counts []int) (*multiReport, error) {
	servers := []*server{m.first}
	defer func() {
		for _, s := range slices.Backward(servers[1:]) {
			s.stop()
		}
	}()
	for i := 2; i <= slices.Max(counts); i++ {
		logf("starting server process %d on the same data dir", i)
		s, err := startServer(ctx, m.bin, m.dataDir, filepath.Join(m.work, fmt.Sprintf("server-%d.log", i)))
		if err != nil {
			return nil, fmt.Errorf("server process %d: %w", i, err)
		}
		servers = append(servers, s)
	}
	postmaster, err := postmasterPID(m.clusterDir)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL's postmaster: %w", err)
	}
	probe := cpuProbe{postmaster: postmaster}
	for _, s := range servers {
		probe.servers = append(probe.servers, s.p.Cmd.Process.Pid)
	}
	rep := &multiReport{conns: multiConns, cpus: runtime.NumCPU()}
	for _, sh := range m.shapes {
		luaPath, err := b.res.write(sh.slug+".lua", wrkScript(sh.method, m.key, sh.body))
		if err != nil {
			return nil, err
		}
		for i, s := range servers {
			if err := warm(ctx, newAPIClient(s.baseURL, m.key), sh); err != nil {
				return nil, fmt.Errorf("%s on process %d: %w%s", sh.slug, i+1, err, s.logTail())
			}
		}
		rw := multiRow{label: sh.label}
		for _, n := range counts {
			p, err := b.multiPoint(ctx, servers[:n], probe, sh, luaPath)
			if err != nil {
				return nil, fmt.Errorf("%s with %d processes: %w", sh.slug, n, err)
			}
			rw.points = append(rw.points, p)
			logf("%s, %d process%s: %s req/s, p99 %s ms; CPU %s", sh.slug, n, pluralES(n),
				thousands(p.rps), millis(p.p99), cpuSummary(p.cpu))
			if err := clock.Sleep(ctx, settle); err != nil {
				return nil, err
			}
		}
		rep.rows = append(rep.rows, rw)
	}
	return rep, nil
}

// multiPoint drives each of servers with its share of multiConns
// connections at once and reads the CPU time around the runs.
func (b bench) multiPoint(ctx context.Context, servers []*server, probe cpuProbe, sh shape, luaPath string) (multiPoint, error) {
	n := len(servers)
	p := multiPoint{processes: n, conns: split(multiConns, n)}
	threads := max(1, loadThreads/n)
	results := make([]wrkResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	before := probe.read()
	for i, s := range servers {
		wg.Go(func() {
			results[i], errs[i] = wrkThreads(ctx, b.wrkBin, s.baseURL+sh.path, luaPath, p.conns[i], min(threads, p.conns[i]), b.cfg.duration)
		})
	}
	wg.Wait()
	after := probe.read()
	var wrkCPU time.Duration
	for i, r := range results {
		_, _ = b.res.write(fmt.Sprintf("multi-%s-p%d-s%d.txt", sh.slug, n, i+1), r.output)
		if errs[i] != nil {
			return p, fmt.Errorf("process %d: %w%s", i+1, errs[i], servers[i].logTail())
		}
		p.rps += r.rps
		p.p99 = max(p.p99, r.p99)
		wrkCPU += r.cpu
	}
	p.cpu = shares(before, after, wrkCPU)
	return p, nil
}

// multiShapes are the shapes the section measures: the hottest read and
// the write.
func multiShapes(all []shape) []shape {
	var out []shape
	for _, s := range all {
		if s.slug == "get-account" || s.slug == "create-account" {
			out = append(out, s)
		}
	}
	return out
}

// warm sends a few requests of a shape to one process.
func warm(ctx context.Context, api *apiClient, sh shape) error {
	for range warmRequests {
		if _, err := api.send(ctx, sh); err != nil {
			return err
		}
	}
	return nil
}

// split divides total into n parts that differ by one at most.
func split(total, n int) []int {
	parts := make([]int, n)
	for i := range parts {
		parts[i] = total / n
		if i < total%n {
			parts[i]++
		}
	}
	return parts
}

func pluralES(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}
