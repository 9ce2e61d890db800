package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os/exec"
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
	tps    float64
	failed int64
	output string
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
	pgbenchTPS    = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
	pgbenchFailed = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
)

func parsePgbench(out string) pgbenchResult {
	r := pgbenchResult{output: out}
	// Recent pgbench prints one tps line ("without initial connection
	// time"); older ones print two, the second excluding connections.
	if m := pgbenchTPS.FindAllStringSubmatch(out, -1); len(m) > 0 {
		r.tps, _ = strconv.ParseFloat(m[len(m)-1][1], 64)
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
