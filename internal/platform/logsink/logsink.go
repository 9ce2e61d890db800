// Package logsink buffers the server's log output. The request log writes
// one line per request; written straight to stderr, that is one write
// system call per request, a tenth of the server's CPU time for a read by id
// (CPU profile under load). Lines are kept in a buffer instead and written
// together every interval, when the buffer fills, at once for a warning or
// an error, and on Close.
//
// What a crash can lose is the request lines of the last interval: a
// panic in a request is recovered and logged as an error, which flushes;
// only a killed process loses them. LOG_FLUSH_INTERVAL=0 writes every line
// at once.
package logsink

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// bufferSize bounds what waits for the next flush.
const bufferSize = 64 << 10

// Sink is a buffered, periodically flushed writer. Safe for concurrent use.
type Sink struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// New buffers w, flushing every interval. interval <= 0 returns a Sink that
// writes through.
func New(w io.Writer, interval time.Duration) *Sink {
	s := &Sink{buf: bufio.NewWriterSize(w, bufferSize)}
	if interval <= 0 {
		s.buf = bufio.NewWriterSize(w, 0) // bufio's minimum: Write goes through when it cannot buffer
		return s
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go s.flushEvery(interval)
	return s
}

func (s *Sink) flushEvery(interval time.Duration) {
	defer close(s.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = s.Flush()
		case <-s.stop:
			return
		}
	}
}

// Write buffers p (one log line, as slog's handlers write them).
func (s *Sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		n, err := s.buf.Write(p)
		if err == nil {
			err = s.buf.Flush()
		}
		return n, err
	}
	return s.buf.Write(p)
}

// Flush writes what is buffered.
func (s *Sink) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Flush()
}

// Close stops the periodic flush and flushes what is left. Later writes go
// through at once.
func (s *Sink) Close() error {
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.mu.Lock()
		s.stop = nil
		s.mu.Unlock()
	}
	return s.Flush()
}

// FlushAt is a slog handler that flushes sink after each record at level
// or above, so warnings and errors are never left waiting in the buffer.
type FlushAt struct {
	slog.Handler
	Sink  *Sink
	Level slog.Level
}

// Handle passes r on, then flushes for a record at the level or above.
func (h FlushAt) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= h.Level {
		if ferr := h.Sink.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// WithAttrs keeps the flushing behaviour for derived loggers.
func (h FlushAt) WithAttrs(attrs []slog.Attr) slog.Handler {
	return FlushAt{Handler: h.Handler.WithAttrs(attrs), Sink: h.Sink, Level: h.Level}
}

// WithGroup keeps the flushing behaviour for derived loggers.
func (h FlushAt) WithGroup(name string) slog.Handler {
	return FlushAt{Handler: h.Handler.WithGroup(name), Sink: h.Sink, Level: h.Level}
}
