package jobs

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQuietLoggerDropsInfo(t *testing.T) {
	var buf bytes.Buffer
	base := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	l := quietLogger(base).WithGroup("g").With("a", 1)

	l.Info("elected leader")
	l.Debug("fetching")
	require.Empty(t, buf.String())

	l.Warn("job failed")
	require.Contains(t, buf.String(), "job failed")
	require.Contains(t, buf.String(), "component=river")
}
