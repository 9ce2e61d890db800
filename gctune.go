package main

import (
	"os"
	"runtime/debug"
)

// defaultGCPercent is serve's garbage collection target when GOGC is not
// set. The server's live heap is small (a few MB: pools, caches, requests
// in flight) and each request allocates its response and rows, so with
// Go's default of 100 the collector runs very often and cost a tenth of a
// read's CPU time under load; at 400 it runs a quarter as often for a heap
// that peaks at five times the live one, still tens of MB. GOGC and
// GOMEMLIMIT set in the environment win (docs/operations.md).
const defaultGCPercent = 400

// tuneGC applies defaultGCPercent unless the operator set GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(defaultGCPercent)
	}
}
