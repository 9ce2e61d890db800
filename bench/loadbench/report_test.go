package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestComposedLimit(t *testing.T) {
	// The issue's own row: 7,686 bare and a 32,293 floor allow 6,208.
	if got := composedLimit(7686, 32293); math.Abs(got-6208.4) > 0.5 {
		t.Fatal(got)
	}
	if composedLimit(0, 100) != 0 || composedLimit(100, 0) != 0 {
		t.Fatal("an unknown rate has no composed limit")
	}
}

func TestMarkdownHasTheComposedColumn(t *testing.T) {
	r := report{when: time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC), conns: []int{32},
		rows: []row{{label: "`GET`", statements: "3", protocol: "prepared", points: map[int]point{
			32: {api: wrkResult{rps: 3254, p99: 20 * time.Millisecond}, bare: &pgbenchResult{tps: 7686}}}}},
		floor: row{label: "floor", statements: "–", points: map[int]point{32: {api: wrkResult{rps: 32293}}}}}
	md := r.markdown()
	for _, want := range []string{
		"| shape | statements | API req/s | API p99 ms | bare protocol | bare tx/s | API / bare | composed limit req/s | API / composed |",
		"| `GET` | 3 | 3,254 | 20 | prepared | 7,686 | 0.42 | 6,208 | 0.52 |",
		"| floor | – | 32,293 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
}
