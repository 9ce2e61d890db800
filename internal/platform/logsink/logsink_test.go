package logsink

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// lockedBuffer is a writer the test can read while the sink writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestInfoWaitsForTheIntervalErrorsFlushAtOnce(t *testing.T) {
	var out lockedBuffer
	sink := New(&out, time.Hour) // the ticker never fires in this test
	defer sink.Close()
	logger := slog.New(FlushAt{Handler: slog.NewJSONHandler(sink, nil), Sink: sink, Level: slog.LevelWarn})

	logger.Info("request")
	if out.String() != "" {
		t.Fatalf("an info line was written before a flush: %q", out.String())
	}
	logger.Error("failed")
	got := out.String()
	if !strings.Contains(got, `"msg":"request"`) || !strings.Contains(got, `"msg":"failed"`) {
		t.Fatalf("an error did not flush what was buffered, in order: %q", got)
	}
	if strings.Index(got, "request") > strings.Index(got, "failed") {
		t.Fatalf("lines out of order: %q", got)
	}
}

func TestTheIntervalFlushes(t *testing.T) {
	var out lockedBuffer
	sink := New(&out, 10*time.Millisecond)
	defer sink.Close()
	slog.New(slog.NewJSONHandler(sink, nil)).Info("request")
	poll.Until(t, "the buffered line to be flushed", func() bool { return out.String() != "" })
}

func TestCloseFlushesAndLaterWritesGoThrough(t *testing.T) {
	var out lockedBuffer
	sink := New(&out, time.Hour)
	logger := slog.New(slog.NewJSONHandler(sink, nil))
	logger.Info("before")
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "before") {
		t.Fatalf("Close did not flush: %q", out.String())
	}
	logger.Info("after")
	if !strings.Contains(out.String(), "after") {
		t.Fatalf("a write after Close waited: %q", out.String())
	}
}

func TestWriteThrough(t *testing.T) {
	var out lockedBuffer
	sink := New(&out, 0)
	slog.New(slog.NewJSONHandler(sink, nil)).Info("now")
	if !strings.Contains(out.String(), "now") {
		t.Fatalf("interval 0 buffered: %q", out.String())
	}
}

func TestConcurrentWritersKeepLinesWhole(t *testing.T) {
	var out lockedBuffer
	sink := New(&out, time.Millisecond)
	logger := slog.New(slog.NewJSONHandler(sink, nil))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				logger.Info("line", "g", g, "i", i, "pad", strings.Repeat("x", 300))
			}
		}()
	}
	wg.Wait()
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8*200 {
		t.Fatalf("%d lines, want %d", len(lines), 8*200)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "{") || !strings.HasSuffix(l, "}") {
			t.Fatalf("a torn line: %.80q", l)
		}
	}
}
