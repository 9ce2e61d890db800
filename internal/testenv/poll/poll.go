// Package poll waits in tests for a state the system under test reaches,
// never for a stretch of time: a wait has no deadline of its own, so a
// loaded machine makes it slower, never wrong. What bounds a wait that
// never ends is the test binary's -timeout; shortly before it, the wait
// fails naming what it waited for, instead of the binary's panic.
package poll

import (
	"testing"
	"time"
)

// pace is the pause between two checks: it spares the CPU the checks
// share with what they wait on, and decides nothing.
const pace = 5 * time.Millisecond

// margin is how long before the test binary's deadline a wait gives up,
// leaving time for the failure to be reported and cleaned up.
const margin = 10 * time.Second

// Until checks cond until it holds. what names the awaited state for the
// failure written if the test binary's time runs out first.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline, bounded := deadlineOf(t)
	for !cond() {
		if bounded && time.Now().After(deadline) { // clock: the test binary's own timeout
			t.Fatalf("still waiting for %s when the test binary's time ran out", what)
		}
		time.Sleep(pace)
	}
}

// deadlineOf is the test binary's deadline less the margin, when the
// binary has one (go test -timeout; a benchmark's testing.B has none).
func deadlineOf(t testing.TB) (time.Time, bool) {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return time.Time{}, false
	}
	deadline, bounded := d.Deadline()
	return deadline.Add(-margin), bounded
}
