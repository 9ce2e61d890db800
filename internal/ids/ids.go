// Package ids makes identifiers. Object ids are UUIDv7 built from the injected
// clock (not the wall clock), so ids stay time-ordered even under test clocks.
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/google/uuid"
)

// New returns a UUIDv7 whose timestamp part is now.
func New(now time.Time) uuid.UUID {
	var u uuid.UUID
	if _, err := rand.Read(u[:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	ms := uint64(now.UnixMilli())
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], ms)
	copy(u[0:6], ts[2:8])
	u[6] = (u[6] & 0x0f) | 0x70 // version 7
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant
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
