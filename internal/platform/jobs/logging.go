package jobs

import (
	"context"
	"log/slog"
)

// riverLogLevel is the least severe level of River's own messages that we
// keep. River reports every leader election, periodic insert and start/stop
// at info; those would drown the server's request logs, while its warnings
// and errors (failed jobs, lost connections) still matter.
const riverLogLevel = slog.LevelWarn

// quietLogger returns a logger for River: the server's handler, tagged so
// River's lines are recognisable, with everything below riverLogLevel
// dropped.
func quietLogger(base *slog.Logger) *slog.Logger {
	if base == nil {
		base = slog.Default()
	}
	return slog.New(minLevelHandler{inner: base.Handler(), min: riverLogLevel}).With("component", "river")
}

// minLevelHandler drops records below min and passes the rest to inner.
type minLevelHandler struct {
	inner slog.Handler
	min   slog.Level
}

func (h minLevelHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= h.min && h.inner.Enabled(ctx, level)
}

func (h minLevelHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.inner.Handle(ctx, r)
}

func (h minLevelHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevelHandler{inner: h.inner.WithAttrs(attrs), min: h.min}
}

func (h minLevelHandler) WithGroup(name string) slog.Handler {
	return minLevelHandler{inner: h.inner.WithGroup(name), min: h.min}
}
