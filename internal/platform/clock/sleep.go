package clock

import (
	"context"
	"time"
)

// Sleep waits d of wall time, or until ctx ends (then it answers ctx's
// error). It is for pacing work against processes outside the server (a
// database starting, a load settling), never for the time the API records:
// that comes from a Clock.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
