package op_test

import (
	"encoding/base64"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/resolvers/op"
)

// A cursor is the base64 of "<created in Unix microseconds>:<uuid>", for
// any time a row can hold (and the extremes of the integer): the text a
// page's `after` reads back (the paging tests of rest and graph follow
// cursors through whole lists).
func TestEncodeCursorWritesMicrosecondsAndUUIDInBase64(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 4))
	times := []time.Time{time.UnixMicro(0), time.UnixMicro(math.MaxInt64), time.UnixMicro(math.MinInt64),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)}
	for range 1000 {
		times = append(times, time.UnixMicro(rng.Int64N(1<<52)))
	}
	for _, at := range times {
		var id uuid.UUID
		for i := range id {
			id[i] = byte(rng.UintN(256))
		}
		p := op.Position{Created: at, ID: id}
		want := base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at.UnixMicro(), 10) + ":" + id.String()))
		require.Equal(t, want, op.EncodeCursor(p))
	}
}

// Every row of a keyset page gets a cursor: it costs the string only.
func TestEncodeCursorAllocatesOnlyItsString(t *testing.T) {
	p := op.Position{Created: time.UnixMicro(1_764_000_000_000_000), ID: uuid.New()}
	require.InDelta(t, 1, testing.AllocsPerRun(100, func() { _ = op.EncodeCursor(p) }), 0)
}
