// Package ids makes identifiers. Object ids are UUIDv7 built from the injected
// clock (not the wall clock), so ids stay time-ordered even under test clocks.
// The ids a process makes are strictly increasing (RFC 9562 §6.2, method 2):
// when the clock has not moved past the previous id's millisecond (the same
// millisecond, another request's later reading, or a test clock set back),
// the previous id's random part is incremented. Lists sort by (created, id),
// so objects written with one timestamp, such as a request's events, list in
// the order they were made, whatever other requests do meanwhile.
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"time"

	"github.com/google/uuid"
)

var (
	mu     sync.Mutex
	lastMs int64 = -1
	last   uuid.UUID
)

// lowMask covers the 62 random bits after the variant.
const lowMask = uint64(1)<<62 - 1

// New returns a UUIDv7 whose timestamp part is now, or the previous id's
// when now is not past it.
func New(now time.Time) uuid.UUID {
	ms := now.UnixMilli()
	mu.Lock()
	defer mu.Unlock()
	if ms <= lastMs {
		if low := binary.BigEndian.Uint64(last[8:]) & lowMask; low < lowMask {
			u := last
			binary.BigEndian.PutUint64(u[8:], (low+1)|uint64(0x80)<<56)
			last = u
			return u
		}
	}
	var u uuid.UUID
	if _, err := rand.Read(u[:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], uint64(ms))
	copy(u[0:6], ts[2:8])
	u[6] = (u[6] & 0x0f) | 0x70 // version 7
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant
	// Leave headroom so a burst within one millisecond stays monotonic.
	u[8] &^= 0x20
	lastMs, last = ms, u
	return u
}

// Parse parses a UUID in its canonical form; anything else is not an id of ours.
func Parse(s string) (uuid.UUID, bool) {
	if len(s) != 36 {
		return uuid.Nil, false
	}
	u, err := uuid.Parse(s)
	return u, err == nil
}

// Append appends id in its canonical form, as id.String writes it
// (lower-case hex, 8-4-4-4-12), without the string String allocates: for
// ids written into a larger text (a JSON rendering, a cursor).
func Append(dst []byte, id uuid.UUID) []byte {
	var text [36]byte
	hex.Encode(text[0:8], id[0:4])
	text[8] = '-'
	hex.Encode(text[9:13], id[4:6])
	text[13] = '-'
	hex.Encode(text[14:18], id[6:8])
	text[18] = '-'
	hex.Encode(text[19:23], id[8:10])
	text[23] = '-'
	hex.Encode(text[24:36], id[10:16])
	return append(dst, text[:]...)
}
