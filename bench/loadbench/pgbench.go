package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pgbenchScript turns a request's captured statements into a pgbench
// script: one script run (one pgbench "transaction") is one request, with
// the request's own BEGIN/COMMIT where it had them.
//
// A write cannot insert the same ids again, so every id the request minted
// (a UUIDv7 stamped at or after the request started; the merchant, seeded
// accounts and keys are older) is replaced, everywhere it occurs, by a
// fresh random value per run: its last 16 hex digits become two pgbench
// variables of decimal digits (which are hex digits too).
func pgbenchScript(stmts []string, requestStart time.Time) string {
	var b strings.Builder
	fresh := map[string]string{} // minted id -> its replacement
	for _, id := range uuidPattern.FindAllString(strings.Join(stmts, "\n"), -1) {
		id = strings.ToLower(id)
		if _, seen := fresh[id]; seen || !mintedSince(id, requestStart) {
			continue
		}
		n := len(fresh) + 1
		fmt.Fprintf(&b, "\\set lbid%da random(1000, 9999)\n\\set lbid%db random(100000000000, 999999999999)\n", n, n)
		fresh[id] = fmt.Sprintf("%s:lbid%da-:lbid%db", id[:19], n, n)
	}
	for _, s := range stmts {
		s = uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
			if r, ok := fresh[strings.ToLower(id)]; ok {
				return r
			}
			return id
		})
		b.WriteString(strings.TrimRight(strings.TrimSpace(s), ";"))
		b.WriteString(";\n")
	}
	return b.String()
}

var uuidPattern = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)

// mintedSince reports whether id is a UUIDv7 whose timestamp is not before
// t (to the millisecond).
func mintedSince(id string, t time.Time) bool {
	raw, err := hex.DecodeString(strings.ReplaceAll(id, "-", ""))
	if err != nil || len(raw) != 16 || raw[6]>>4 != 7 {
		return false
	}
	var ts [8]byte
	copy(ts[2:], raw[:6])
	return int64(binary.BigEndian.Uint64(ts[:])) >= t.UnixMilli()
}

// pgbenchResult is one pgbench run.
type pgbenchResult struct {
	tps       float64
	processed int64 // script runs completed
	failed    int64
	p99       time.Duration // 0 unless measured (latencyArgs)
	output    string
}

// pgbench runs a script (script: its options, bareScript.args) against url
// with conns clients for dur (or, when transactions > 0, that many script
// runs per client).
func pgbench(ctx context.Context, bin, url string, script []string, conns int, dur time.Duration, transactions int) (pgbenchResult, error) {
	args := append(slices.Clone(script), "-c", strconv.Itoa(conns), "-j", strconv.Itoa(min(conns, loadThreads)))
	timeout := time.Minute
	if transactions > 0 {
		args = append(args, "-t", strconv.Itoa(transactions))
	} else {
		secs := int(dur / time.Second)
		args = append(args, "-T", strconv.Itoa(secs))
		timeout += dur
	}
	args = append(args, url)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	res := parsePgbench(out.String())
	if err != nil {
		return res, fmt.Errorf("pgbench %s: %w\n%s", strings.Join(args[:len(args)-1], " "), err, tail(out.String(), 2000))
	}
	if res.failed > 0 {
		return res, fmt.Errorf("pgbench: %d failed transactions\n%s", res.failed, tail(out.String(), 2000))
	}
	if res.tps == 0 {
		return res, fmt.Errorf("pgbench: no tps in its output\n%s", tail(out.String(), 2000))
	}
	return res, nil
}

var (
	pgbenchTPS       = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
	pgbenchFailed    = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
	pgbenchProcessed = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`)
)

func parsePgbench(out string) pgbenchResult {
	r := pgbenchResult{output: out}
	// Recent pgbench prints one tps line ("without initial connection
	// time"); older ones print two, the second excluding connections.
	if m := pgbenchTPS.FindAllStringSubmatch(out, -1); len(m) > 0 {
		r.tps, _ = strconv.ParseFloat(m[len(m)-1][1], 64)
	}
	if m := pgbenchProcessed.FindStringSubmatch(out); m != nil {
		r.processed, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := pgbenchFailed.FindStringSubmatch(out); m != nil {
		r.failed, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return r
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// pgbenchVersion is pgbench's version line ("pgbench (PostgreSQL) 15.18").
func pgbenchVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "pgbench"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

// latencyArgs has pgbench log every script run's latency into files in
// dir (-l), for pgbenchP99.
func latencyArgs(dir string) []string {
	return []string{"-l", "--log-prefix=" + filepath.Join(dir, "tx")}
}

// pgbenchP99 is the 99th percentile of the script runs' latencies that
// pgbench logged in dir (one file per thread; a line per run, its third
// field the latency in microseconds).
func pgbenchP99(dir string) (time.Duration, error) {
	files, err := filepath.Glob(filepath.Join(dir, "tx.*"))
	if err != nil {
		return 0, err
	}
	var lat []int64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			fields := strings.Fields(line)
			if len(fields) < 3 {
				continue
			}
			us, err := strconv.ParseInt(fields[2], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %q: %w", f, line, err)
			}
			lat = append(lat, us)
		}
	}
	if len(lat) == 0 {
		return 0, fmt.Errorf("pgbench logged no latency in %s", dir)
	}
	slices.Sort(lat)
	return time.Duration(lat[(len(lat)*99+99)/100-1]) * time.Microsecond, nil
}
