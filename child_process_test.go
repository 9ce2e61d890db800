package main

import (
	"bytes"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// servingLine is what `serve` logs once its socket listens: from then on
// connections wait in the socket's backlog until it accepts them.
const servingLine = `"msg":"serving"`

// lockedBuffer collects a child's output, written by exec's copying
// goroutine while the test may read it, and wakes whoever waits for a
// line (awaitLine) at each write and when the child has exited.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	grew   chan struct{} // closed and replaced at each write
	exited bool
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wakeLocked()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// wakeLocked wakes the waiters of awaitLine; b.mu is held.
func (b *lockedBuffer) wakeLocked() {
	if b.grew != nil {
		close(b.grew)
		b.grew = nil
	}
}

// end records that the child exited: its output is whole.
func (b *lockedBuffer) end() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.exited = true
	b.wakeLocked()
}

// awaitLine waits until the output holds s, and reports whether it does:
// false once the child exited without printing it. It has no deadline of
// its own (the test binary's timeout guards a child that hangs silently).
func (b *lockedBuffer) awaitLine(s string) bool {
	for {
		b.mu.Lock()
		if strings.Contains(b.buf.String(), s) {
			b.mu.Unlock()
			return true
		}
		if b.exited {
			b.mu.Unlock()
			return false
		}
		if b.grew == nil {
			b.grew = make(chan struct{})
		}
		grew := b.grew
		b.mu.Unlock()
		<-grew
	}
}

// startChild starts cmd with its output in a new lockedBuffer until the
// test ends: at cleanup it is sent SIGTERM (then killed if it has not
// exited within grace) and its output is logged if the test failed.
func startChild(t *testing.T, cmd *exec.Cmd, name string, grace time.Duration) *lockedBuffer {
	t.Helper()
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait() // returns once exec has copied all of the output
		logs.end()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("%s logs:\n%s", name, logs.String())
		}
	})
	return logs
}

// requireServing waits until the `serve` child writing logs listens.
func requireServing(t *testing.T, logs *lockedBuffer) {
	t.Helper()
	require.True(t, logs.awaitLine(servingLine), "serve exited before serving: %s", logs.String())
}
