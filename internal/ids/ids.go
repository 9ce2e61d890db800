// Package ids makes identifiers. Object ids are UUIDv7 built from the injected
// clock (not the wall clock), so ids stay time-ordered even under test clocks.
// Within one millisecond ids of a process are monotonic (RFC 9562 §6.2): the
// random part of the previous id is incremented. Objects a request writes
// together (an account, then its events) therefore list in the order they
// were made when they share a timestamp.
package ids

import (
	"crypto/rand"
	"encoding/binary"
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

// New returns a UUIDv7 whose timestamp part is now.
func New(now time.Time) uuid.UUID {
	ms := now.UnixMilli()
	mu.Lock()
	defer mu.Unlock()
	if ms == lastMs {
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
