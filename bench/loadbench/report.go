package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// point is one shape at one connection count.
type point struct {
	api  wrkResult
	bare *pgbenchResult // nil: not run bare (the floor)
}

// row is one line of the table, at every connection count.
type row struct {
	label      string
	statements string // "3", or "–" for the floor
	protocol   string // pgbench -M of the bare run; "" for the floor
	latency    bool   // also in the latency table (bare p99 measured)
	plan       string // the scans of its statement's plan (latency rows)
	points     map[int]point
}

// report is the whole run.
type report struct {
	when           time.Time
	pgVersion      string
	wrkVersion     string
	pgbenchVersion string
	duration       time.Duration
	conns          []int
	accounts       int
	events         int // metering events of the usage report's customer
	rows           []row
	floor          row
	multi          *multiReport   // nil: not measured
	replica        *replicaReport // nil: not measured
}

// markdown renders the run: a header with the machine and settings, then
// one table per connection count, most connections first.
func (r report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured by `make loadbench` on %s: %s; the server built with %s on its embedded PostgreSQL %s "+
		"(`serve`'s defaults, rate limits off); %s; %s; %s per point, %d accounts with 3 capabilities each, "+
		"the usage report's customer with %s metering events in the current month and twice as many in the two before.\n\n",
		r.when.UTC().Format("2006-01-02 15:04 UTC"), machine(), runtime.Version(), r.pgVersion,
		r.wrkVersion, r.pgbenchVersion, r.duration, r.accounts, thousands(float64(r.events)))
	b.WriteString("*statements*: what one request of the shape ran (captured from the PostgreSQL log, " +
		"transaction control not counted); *bare*: pgbench running exactly those, one pgbench " +
		"transaction per request, same database, same connection count, same run, in the protocol the server " +
		"sent them in (*bare protocol*, pgbench's `-M`: `prepared` when the server ran every statement as a named " +
		"prepared statement of the extended protocol, replayed with the logged parameter values; `extended` the " +
		"same with the unnamed statement, parsed every time; `simple`, text with the values inlined, when it sent " +
		"them so, or mixed the two); the floor is a bare Go `net/http` handler answering a small JSON object; " +
		"*composed limit*: what the machine allows a request that costs its bare statements plus the floor's HTTP " +
		"round trip, 1 / (1 / bare + 1 / floor), both from this run at this connection count, and *API / composed* " +
		"the API's share of it (1.0: nothing beyond its statements and an HTTP round trip).\n")
	conns := slices.Clone(r.conns)
	slices.Sort(conns)
	slices.Reverse(conns)
	for _, c := range conns {
		fmt.Fprintf(&b, "\n#### %d connection%s\n\n", c, plural(c))
		b.WriteString("| shape | statements | API req/s | API p99 ms | bare protocol | bare tx/s | API / bare | composed limit req/s | API / composed |\n")
		b.WriteString("|---|---:|---:|---:|---|---:|---:|---:|---:|\n")
		floor, hasFloor := r.floor.points[c]
		for _, rw := range append(slices.Clone(r.rows), r.floor) {
			p, ok := rw.points[c]
			if !ok {
				continue
			}
			protocol, bare, ratio, composed, share := "–", "–", "–", "–", "–"
			if rw.protocol != "" {
				protocol = rw.protocol
			}
			if p.bare != nil {
				bare = thousands(p.bare.tps)
				ratio = fmt.Sprintf("%.2f", p.api.rps/p.bare.tps)
				if limit := composedLimit(p.bare.tps, floor.api.rps); hasFloor && limit > 0 {
					composed = thousands(limit)
					share = fmt.Sprintf("%.2f", p.api.rps/limit)
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				rw.label, rw.statements, thousands(p.api.rps), millis(p.api.p99), protocol, bare, ratio, composed, share)
		}
		if f, ok := r.floor.points[c]; ok && len(r.rows) > 0 {
			if g, ok := r.rows[0].points[c]; ok && f.api.rps > 0 {
				fmt.Fprintf(&b, "\n%s reaches %.2f of the floor.\n", r.rows[0].label, g.api.rps/f.api.rps)
			}
		}
	}
	b.WriteString(r.latencyMarkdown(conns))
	b.WriteString(r.multi.markdown())
	b.WriteString(r.replica.markdown())
	return b.String()
}

// latencyMarkdown is the table of the shapes whose p99 is compared with
// their statements' bare p99 (pgbench's per-run latencies), "" when none.
func (r report) latencyMarkdown(conns []int) string {
	var b strings.Builder
	for _, rw := range r.rows {
		if !rw.latency {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\n#### Latency against the bare statements\n\n" +
				"*p99*: wrk's 99th percentile of the API's requests; pgbench's of the bare script runs (from its " +
				"per-run log), same run, same connection count.\n\n" +
				"| shape | connections | API req/s | bare tx/s | API / bare | API p99 ms | bare p99 ms | API p99 / bare p99 |\n" +
				"|---|---:|---:|---:|---:|---:|---:|---:|\n")
		}
		for _, c := range conns {
			p, ok := rw.points[c]
			if !ok || p.bare == nil || p.bare.p99 == 0 {
				continue
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %.2f | %s | %s | %.1f |\n", rw.label, c, thousands(p.api.rps),
				thousands(p.bare.tps), p.api.rps/p.bare.tps, millis(p.api.p99), millis(p.bare.p99),
				float64(p.api.p99)/float64(p.bare.p99))
		}
	}
	for _, rw := range r.rows {
		if rw.latency && rw.plan != "" {
			fmt.Fprintf(&b, "\n%s: its statement's plan (`EXPLAIN ANALYZE` before the runs): %s.\n", rw.label, rw.plan)
		}
	}
	return b.String()
}

// composedLimit is the rate the machine allows a request that costs its
// statements run bare (bare per second) and a bare HTTP round trip (floor
// per second) one after the other: the two costs add, so their rates
// combine as resistors in series. 0 when either rate is unknown.
func composedLimit(bare, floor float64) float64 {
	if bare <= 0 || floor <= 0 {
		return 0
	}
	return 1 / (1/bare + 1/floor)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// thousands rounds v and groups its digits: 33491.2 -> "33,491".
func thousands(v float64) string {
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// millis renders a latency in ms with two significant digits or more:
// 36, 9.6, 0.45.
func millis(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 10:
		return strconv.FormatFloat(math.Round(ms), 'f', 0, 64)
	case ms >= 1:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	default:
		return strconv.FormatFloat(ms, 'f', 2, 64)
	}
}

// machine describes this machine: CPUs (and model) and memory.
func machine() string {
	s := fmt.Sprintf("%d CPUs", runtime.NumCPU())
	if model := procField("/proc/cpuinfo", "model name"); model != "" {
		s += " (" + strings.Join(strings.Fields(model), " ") + ")"
	}
	if mem := procField("/proc/meminfo", "MemTotal"); mem != "" {
		if kb, err := strconv.ParseFloat(strings.TrimSuffix(mem, " kB"), 64); err == nil {
			s += fmt.Sprintf(", %.1f GiB of memory", kb/(1<<20))
		}
	}
	return s + ", " + runtime.GOOS + "/" + runtime.GOARCH
}

// procField is the first "name: value" of a /proc file, or "".
func procField(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
