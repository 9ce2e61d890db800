package webhooks

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// ListenConfig bounds listen sessions (docs/webhooks.md, "Local webhooks
// with the CLI"). The zero value takes every default.
type ListenConfig struct {
	// ResumeWindow is how long a session outlives its connection: a
	// reconnect within it resumes the session (the CLI's replay window).
	ResumeWindow time.Duration
	// Renew is how often the connection holding a session renews it (its
	// expiry one ResumeWindow ahead); a process that dies stops renewing.
	Renew time.Duration
	// InFlight bounds the events sent to the CLI and not yet acknowledged;
	// the session sends more as acks come.
	InFlight int
	// Buffer bounds the events committed for the session and waiting to
	// be sent; one more disconnects the client, which resumes and is sent
	// them again from the database. With InFlight, it is what a session
	// holds in memory however slow its client.
	Buffer int
	// MaxLive is how many sessions of one merchant may live at once.
	MaxLive int
	// SweepInterval is how often the sessions past their expiry are ended.
	SweepInterval time.Duration
}

// Defaults of ListenConfig.
const (
	DefaultListenResumeWindow = 5 * time.Minute
	defaultListenRenew        = time.Minute
	defaultListenInFlight     = 256
	defaultListenBuffer       = 1024
	// MaxLiveListenSessions is the default of ListenConfig.MaxLive.
	MaxLiveListenSessions      = 16
	defaultListenSweepInterval = 30 * time.Second
)

func (c ListenConfig) withDefaults() ListenConfig {
	flagenv.Default(&c.ResumeWindow, DefaultListenResumeWindow)
	flagenv.Default(&c.Renew, defaultListenRenew)
	flagenv.Default(&c.InFlight, defaultListenInFlight)
	flagenv.Default(&c.Buffer, defaultListenBuffer)
	flagenv.Default(&c.MaxLive, MaxLiveListenSessions)
	flagenv.Default(&c.SweepInterval, defaultListenSweepInterval)
	return c
}
