// Package clock is the one source of time for the server. Every timestamp the
// API writes comes from a Clock so that tests, and later sandbox test clocks,
// can control time without touching the wall clock.
package clock

import (
	"sync"
	"time"
)

// Clock tells the current time.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock, truncated to microseconds so that values round-trip
// through PostgreSQL timestamps unchanged.
type Real struct{}

// Now returns the current UTC time.
func (Real) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Manual is a clock that only moves when told to; tests use it to make
// timestamps deterministic.
type Manual struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

// NewManual returns a Manual clock set to start.
func NewManual(start time.Time) *Manual {
	return &Manual{now: start.UTC().Truncate(time.Microsecond)}
}

// Now returns the clock's current time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now
	m.now = m.now.Add(m.step)
	return now
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = t.UTC().Truncate(time.Microsecond)
}

// SetStep makes the clock move forward by step after every reading, so that
// objects made one after another get distinct, ordered timestamps while
// staying deterministic.
func (m *Manual) SetStep(step time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.step = step
}
