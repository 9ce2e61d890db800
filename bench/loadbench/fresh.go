package main

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// A write that de-duplicates on a reference (metering events: one event per
// reference, for ever) inserts only when the reference is new, so sending
// the same body again would measure the duplicate's answer, not the
// insert. Such a shape's body carries freshToken where the reference goes,
// and every request replaces it by a reference no request used before:
//
//   - the benchmark's own requests (capture, warm-up) by apiReference;
//   - wrk's by its Lua script (freshWrkScript), per thread and request;
//   - the bare replay's by pgbench variables (freshPgbench): the reference
//     the captured request sent becomes one made of the pgbench run, the
//     client and a per-client counter, so each bare run inserts too and
//     the unique index is checked against new keys on both sides.
const freshToken = "loadbench-fresh-reference"

// runTag tells this run's references from another run's on the same
// database (a -keep'd data dir reused).
var runTag = fmt.Sprintf("%x", time.Now().UnixNano()) // clock: process timing only

var apiSeq atomic.Int64

// apiReference is a new reference for one of the benchmark's own requests.
func apiReference() string {
	return fmt.Sprintf("lb-%s-api-%d", runTag, apiSeq.Add(1))
}

// freshBody is body with its token replaced by ref.
func freshBody(body, ref string) string { return strings.Replace(body, freshToken, ref, 1) }

// freshWrkScript is wrkScript for a fresh shape: every request's body
// carries its own reference, "lb-<run>-<point>-<thread>-<n>" (point names
// the wrk run, so two runs of the shape never collide).
func freshWrkScript(method, key, body, point string) string {
	before, after, _ := strings.Cut(body, freshToken)
	var b strings.Builder
	b.WriteString(wrkScript(method, key, ""))
	b.WriteString("wrk.headers[\"Content-Type\"] = \"application/json\"\n")
	fmt.Fprintf(&b, "local before = %s\n", luaString(before))
	fmt.Fprintf(&b, "local after = %s\n", luaString(after))
	fmt.Fprintf(&b, "local prefix = %s\n", luaString("lb-"+runTag+"-"+point+"-"))
	// setup runs in the main Lua state, once per thread; each thread has
	// its own state, in which thread:set defines the global tid.
	b.WriteString(`local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  return wrk.format(nil, nil, nil, before .. prefix .. tid .. "-" .. n .. after)
end
`)
	return b.String()
}

// freshPgbench rewrites a captured statement so that the reference ref the
// captured request sent becomes, in each pgbench script run, one that no
// run used before: the run's tag (-D lbrun, set per pgbench invocation by
// freshRunArgs), the client (pgbench's :client_id) and the client's own
// counter (:lbseq, counted up by the script's first line, freshCounter).
func freshPgbench(stmt, ref string) string {
	return strings.ReplaceAll(stmt, ref, "lb-:lbrun-:client_id-:lbseq")
}

// freshCounter is the script line that counts a client's runs.
const freshCounter = "\\set lbseq :lbseq + 1\n"

// freshRunArgs are the pgbench options that start the counter and name
// the run (point: the shape and connection count, unique per run).
func freshRunArgs(point string) []string {
	return []string{"-D", "lbseq=0", "-D", "lbrun=" + runTag + "-bare-" + point}
}
