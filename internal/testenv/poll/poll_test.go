package poll_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// A wait ends as soon as its condition holds, however many checks that
// takes.
func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	t.Parallel()
	checks := 0
	poll.Until(t, "the third check", func() bool { checks++; return checks == 3 })
	require.Equal(t, 3, checks)
}

// boundedTB is a test whose binary's time has run out: its failure is
// recorded, and it stops the waiting goroutine as testing.T's FailNow does.
type boundedTB struct {
	testing.TB
	deadline time.Time
	failure  string
}

func (b *boundedTB) Helper()                     {}
func (b *boundedTB) Deadline() (time.Time, bool) { return b.deadline, true }
func (b *boundedTB) Fatalf(format string, args ...any) {
	b.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// A condition that never holds fails the wait when the test binary's time
// runs out, naming what was awaited, instead of hanging to the binary's
// panic.
func TestUntilFailsNamingTheStateWhenTheBinarysTimeRunsOut(t *testing.T) {
	t.Parallel()
	tb := &boundedTB{TB: t, deadline: time.Now()} // clock: the fake binary's deadline, already past
	done := make(chan struct{})
	go func() {
		defer close(done)
		poll.Until(tb, "a state that never comes", func() bool { return false })
	}()
	<-done
	require.Equal(t, "still waiting for a state that never comes when the test binary's time ran out", tb.failure)
}
