package main

import (
	"fmt"
	"strconv"
	"strings"
)

// markdown renders the multi-process section: a heading, what the columns
// are, the table, and one sentence reading it.
func (r *multiReport) markdown() string {
	if r == nil || len(r.rows) == 0 {
		return ""
	}
	var b strings.Builder
	counts := r.rows[0].points
	names := make([]string, len(counts))
	for i, p := range counts {
		names[i] = strconv.Itoa(p.processes)
	}
	fmt.Fprintf(&b, "\n#### %s server processes on one database\n\n", strings.Join(names, " and "))
	fmt.Fprintf(&b, "The same database served by one `server serve` process and by more (each further one started "+
		"on the same data dir, attaching to the running PostgreSQL); %d connections in total, split evenly, one wrk "+
		"per process, all at once; *req/s* summed, *p99* the worst of the wrk runs. CPU columns: share of the "+
		"machine's %d CPUs during the point, from /proc: the server processes, PostgreSQL (the postmaster and all "+
		"its processes), wrk, the rest of the machine, idle.\n\n", r.conns, r.cpus)
	b.WriteString("| shape | processes | connections | req/s | × 1 process | p99 ms | server | PostgreSQL | wrk | other | idle |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, rw := range r.rows {
		for _, p := range rw.points {
			c := p.cpu
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				rw.label, p.processes, connsCell(p.conns), thousands(p.rps), gain(rw.points[0], p), millis(p.p99),
				pct(c, c.server), pct(c, c.postgres), pct(c, c.wrk), pct(c, c.other), pct(c, c.idle))
		}
	}
	if s := r.reading(); s != "" {
		b.WriteString("\n" + s + "\n")
	}
	return b.String()
}

// reading is one sentence saying, for the most processes against one,
// whether throughput added up and what bounded it.
func (r *multiReport) reading() string {
	type finding struct {
		label, gain, verdict string
		notes                []string
	}
	var fs []finding
	n := 0
	for _, rw := range r.rows {
		if len(rw.points) < 2 {
			continue
		}
		one, most := rw.points[0], rw.points[len(rw.points)-1]
		n = most.processes
		f := finding{label: rw.label, gain: gain(one, most), verdict: r.verdict(one, most)}
		if c := most.cpu; c.known {
			f.notes = append(f.notes, "the CPUs "+pct(c, c.idle)+" idle")
			if c.idle < saturated {
				who, share := largestShare(c)
				f.notes = append(f.notes, "the largest share "+who+" at "+pct(c, share))
			}
			// On a shared machine more processes can take CPU from
			// the others: a gain that came from there says so.
			if one.cpu.known && one.cpu.other-c.other >= 0.1 {
				f.notes = append(f.notes, "the rest of the machine down from "+pct(c, one.cpu.other)+" to "+pct(c, c.other))
			}
		}
		fs = append(fs, f)
	}
	if len(fs) == 0 {
		return ""
	}
	same := true
	for _, f := range fs {
		same = same && f.verdict == fs[0].verdict
	}
	var b strings.Builder
	fmt.Fprintf(&b, "With %d processes instead of one, ", n)
	for i, f := range fs {
		switch {
		case i == 0:
		case i == len(fs)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(f.label + " served " + f.gain)
		if i == 0 {
			b.WriteString(" the requests")
		}
		notes := f.notes
		if !same {
			notes = append(notes, f.verdict)
		}
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, ", ") + ")")
		}
	}
	if same {
		b.WriteString(": " + fs[0].verdict)
	}
	b.WriteString(".")
	return b.String()
}

// saturated is the idle share under which the CPUs count as saturated.
const saturated = 0.1

// verdict says what bounded throughput at point most, against one process.
func (r *multiReport) verdict(one, most multiPoint) string {
	added := one.rps > 0 && most.rps/one.rps >= 0.8*float64(most.processes)
	c := most.cpu
	switch {
	case c.known && c.idle < saturated:
		return fmt.Sprintf("the CPUs were saturated, so on %d CPUs a further process has no CPU to add", r.cpus)
	case added:
		return "throughput added up, neither the CPUs nor PostgreSQL the bound yet"
	case c.known:
		return "it did not add up although CPU was left, so the bound is something the processes share " +
			"(PostgreSQL's locks, commits or connections), not CPU"
	default:
		return "it did not add up (CPU shares unknown)"
	}
}

// largestShare is who took the most CPU.
func largestShare(c cpuShares) (string, float64) {
	who, share := "the server processes", c.server
	for _, o := range []struct {
		name  string
		share float64
	}{{"PostgreSQL", c.postgres}, {"wrk", c.wrk}, {"the rest of the machine", c.other}} {
		if o.share > share {
			who, share = o.name, o.share
		}
	}
	return who, share
}

// gain is p's throughput as a multiple of one's: "1.96×".
func gain(one, p multiPoint) string {
	if one.rps <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", p.rps/one.rps)
}

// connsCell is "32", or "2 × 16" for even splits, or "11 + 11 + 10".
func connsCell(conns []int) string {
	if len(conns) == 1 {
		return strconv.Itoa(conns[0])
	}
	even := true
	parts := make([]string, len(conns))
	for i, c := range conns {
		even = even && c == conns[0]
		parts[i] = strconv.Itoa(c)
	}
	if even {
		return fmt.Sprintf("%d × %d", len(conns), conns[0])
	}
	return strings.Join(parts, " + ")
}

// pct renders a CPU share as a whole percentage, "–" when unknown.
func pct(c cpuShares, share float64) string {
	if !c.known {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", share*100)
}

// cpuSummary is a point's CPU shares for the progress log.
func cpuSummary(c cpuShares) string {
	if !c.known {
		return "unknown"
	}
	return fmt.Sprintf("server %s, PostgreSQL %s, wrk %s, other %s, idle %s",
		pct(c, c.server), pct(c, c.postgres), pct(c, c.wrk), pct(c, c.other), pct(c, c.idle))
}
