package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// loadThreads is the threads of wrk and pgbench (fewer with fewer
// connections: wrk wants at least one connection per thread).
const loadThreads = 2

// wrkScript is the Lua script that makes wrk send a shape's request:
// method, headers and body, the same for every request.
func wrkScript(method, key, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = %s\n", luaString(method))
	if key != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Authorization\"] = %s\n", luaString("Bearer "+key))
	}
	if body != "" {
		b.WriteString("wrk.headers[\"Content-Type\"] = \"application/json\"\n")
		fmt.Fprintf(&b, "wrk.body = %s\n", luaString(body))
	}
	return b.String()
}

// luaString quotes s as a Lua long string, with a level of '=' signs that
// does not occur in s.
func luaString(s string) string {
	eq := ""
	for strings.Contains(s, "]"+eq+"]") {
		eq += "="
	}
	if strings.HasPrefix(s, "\n") {
		s = "\n" + s // Lua drops a newline right after the opening bracket
	}
	return "[" + eq + "[" + s + "]" + eq + "]"
}

// wrkResult is one wrk run.
type wrkResult struct {
	rps          float64
	requests     int64 // completed in the run
	p99          time.Duration
	non2xx       int64
	socketErrors string
	output       string
	cpu          time.Duration // wrk's own CPU time (user and system)
}

// wrk drives url with conns connections for dur, requests made by the Lua
// script at scriptPath.
func wrk(ctx context.Context, bin, url, scriptPath string, conns int, dur time.Duration) (wrkResult, error) {
	return wrkThreads(ctx, bin, url, scriptPath, conns, min(conns, loadThreads), dur)
}

// wrkThreads is wrk with the number of threads given (the multi-process
// section splits loadThreads among its wrk processes).
func wrkThreads(ctx context.Context, bin, url, scriptPath string, conns, threads int, dur time.Duration) (wrkResult, error) {
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", int(dur/time.Second)), "--timeout", "10s", "--latency", "-s", scriptPath, url}
	ctx, cancel := context.WithTimeout(ctx, dur+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	res := parseWrk(out.String())
	if ps := cmd.ProcessState; ps != nil {
		res.cpu = ps.UserTime() + ps.SystemTime()
	}
	if err != nil {
		return res, fmt.Errorf("wrk %s: %w\n%s", strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	if res.rps == 0 {
		return res, fmt.Errorf("wrk: no Requests/sec in its output\n%s", tail(out.String(), 2000))
	}
	if res.non2xx > 0 {
		return res, fmt.Errorf("wrk: %d responses were not 2xx (%s)\n%s", res.non2xx, url, tail(out.String(), 2000))
	}
	return res, nil
}

var (
	wrkRPS          = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkRequests     = regexp.MustCompile(`(?m)^\s*(\d+) requests in `)
	wrkP99          = regexp.MustCompile(`(?m)^\s+99(?:\.000)?%\s+([0-9.]+)(us|ms|s|m)\s*$`)
	wrkNon2xx       = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	wrkSocketErrors = regexp.MustCompile(`Socket errors:\s+(.*)`)
)

func parseWrk(out string) wrkResult {
	r := wrkResult{output: out}
	if m := wrkRPS.FindStringSubmatch(out); m != nil {
		r.rps, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := wrkRequests.FindStringSubmatch(out); m != nil {
		r.requests, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := wrkP99.FindStringSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute}[m[2]]
		r.p99 = time.Duration(v * float64(unit))
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		r.non2xx, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := wrkSocketErrors.FindStringSubmatch(out); m != nil {
		r.socketErrors = strings.TrimSpace(m[1])
	}
	return r
}

// wrkVersion is wrk's version line ("wrk 4.1.0 [epoll]").
func wrkVersion(bin string) string {
	out, _ := exec.Command(bin, "-v").CombinedOutput() // exits 1 after printing
	line, _, _ := strings.Cut(string(out), "\n")
	line, _, _ = strings.Cut(line, " Copyright")
	return strings.TrimSpace(line)
}
