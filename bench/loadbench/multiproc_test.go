package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
	// The command name may hold spaces and parentheses.
	line := "4242 (postgres: a (b) c) S 4100 4100 4100 0 -1 4194560 500 0 0 0 120 35 7 3 20 0 1 0 100 1000 10\n"
	got, err := parseProcStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if want := (procTimes{ppid: 4100, utime: 120, stime: 35, cutime: 7, cstime: 3}); got != want {
		t.Fatalf("%+v, want %+v", got, want)
	}
	if _, err := parseProcStat("4242 (x) S 1"); err == nil {
		t.Fatal("a short line must be refused")
	}
}

func TestShares(t *testing.T) {
	at := time.Unix(0, 0)
	a := cpuReading{at: at, servers: 1000, postgres: 500, idle: 300, all: 1000}
	// 2 s on the machine's CPUs: 200 ticks of capacity per CPU.
	b := cpuReading{at: at.Add(2 * time.Second), servers: 1000 + 100, postgres: 500 + 80, idle: 300 + 40, all: 1000 + 400}
	s := shares(a, b, 200*time.Millisecond)
	if !s.known || s.idle != 0.1 {
		t.Fatalf("%+v", s)
	}
	if sum := s.server + s.postgres + s.wrk + s.other + s.idle; sum < 0.999 || sum > 1.001 {
		t.Fatalf("shares add up to %v: %+v", sum, s)
	}
	if s := shares(a, cpuReading{err: errTest}, 0); s.known {
		t.Fatal("a failed reading must give unknown shares")
	}
}

var errTest = errors.New("no /proc")

func TestSplitAndCounts(t *testing.T) {
	if got := split(32, 3); !slices.Equal(got, []int{11, 11, 10}) {
		t.Fatal(got)
	}
	if got := connsCell(split(32, 2)); got != "2 × 16" {
		t.Fatal(got)
	}
	if got := connsCell(split(32, 3)); got != "11 + 11 + 10" {
		t.Fatal(got)
	}
	if got := multiCounts([]int{2}); !slices.Equal(got, []int{1, 2}) {
		t.Fatal(got)
	}
	if got := multiCounts([]int{1}); got != nil {
		t.Fatal(got)
	}
	if _, err := parseCounts("-processes", "1,0", multiConns); err == nil {
		t.Fatal("0 processes must be refused")
	}
}

func TestMultiReading(t *testing.T) {
	pt := func(n int, rps float64, server, pg, wrk, other, idle float64) multiPoint {
		return multiPoint{processes: n, conns: split(multiConns, n), rps: rps, p99: 20 * time.Millisecond,
			cpu: cpuShares{known: true, server: server, postgres: pg, wrk: wrk, other: other, idle: idle}}
	}
	r := &multiReport{conns: multiConns, cpus: 2, rows: []multiRow{
		{label: "`GET`", points: []multiPoint{pt(1, 3000, 0.5, 0.3, 0.1, 0.08, 0.02), pt(2, 3060, 0.55, 0.3, 0.1, 0.04, 0.01)}},
		{label: "`POST`", points: []multiPoint{pt(1, 600, 0.3, 0.5, 0.05, 0.13, 0.02), pt(2, 590, 0.3, 0.55, 0.05, 0.09, 0.01)}},
	}}
	md := r.markdown()
	for _, want := range []string{
		"#### 1 and 2 server processes on one database",
		"| `GET` | 2 | 2 × 16 | 3,060 | 1.02× | 20 | 55% | 30% | 10% | 4% | 1% |",
		"With 2 processes instead of one, `GET` served 1.02× the requests (the CPUs 1% idle, the largest share " +
			"the server processes at 55%) and `POST` served 0.98× (the CPUs 1% idle, the largest share PostgreSQL at 55%): " +
			"the CPUs were saturated, so on 2 CPUs a further process has no CPU to add.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
	r.rows = r.rows[:1]
	r.rows[0].points[1] = pt(2, 5900, 0.9, 0.6, 0.2, 0.05, 0.25)
	if got := r.reading(); !strings.Contains(got, "1.97×") || !strings.HasSuffix(got, "throughput added up, neither the CPUs nor PostgreSQL the bound yet.") {
		t.Fatal(got)
	}
	r.rows[0].points[1] = pt(2, 3100, 0.4, 0.3, 0.1, 0.05, 0.15)
	if got := r.reading(); !strings.Contains(got, "not CPU") {
		t.Fatal(got)
	}
}
