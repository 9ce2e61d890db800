package webhook

import "time"

// Schedule is the retry policy of deliveries: up to MaxAttempts attempts,
// the n-th retry Base·2^(n-1) after the failed attempt, never more than Max.
type Schedule struct {
	MaxAttempts int
	Base        time.Duration
	Max         time.Duration
}

// DefaultSchedule retries 9 times over about 8.5 hours: 1, 2, 4, … 256
// minutes after each failure.
var DefaultSchedule = Schedule{MaxAttempts: 10, Base: time.Minute, Max: 12 * time.Hour}

// Backoff is the wait after the attempt-th attempt failed (attempt ≥ 1).
func (s Schedule) Backoff(attempt int) time.Duration {
	d := s.Base
	for i := 1; i < attempt && d < s.Max; i++ {
		d *= 2
	}
	return min(d, s.Max)
}

// Final reports whether the attempt-th attempt was the last one allowed.
func (s Schedule) Final(attempt int) bool { return attempt >= s.MaxAttempts }
