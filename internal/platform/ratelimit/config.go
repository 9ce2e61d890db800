package ratelimit

import (
	"flag"
	"fmt"
	"math"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// Default limits (API-DECISIONS §8), the ones common payment APIs publish:
// 100 requests per second in production and 25 in sandbox, per merchant,
// with a burst of one second's worth.
const (
	DefaultProductionRate = 100
	DefaultSandboxRate    = 25
)

// Limit is one mode's limit: a token bucket of Burst requests, refilled at
// Rate requests per second, shared by every server process on the database.
type Limit struct {
	// Rate is the sustained requests per second; 0 turns the limit off.
	Rate float64
	// Burst is the bucket's capacity: how many requests may arrive at once
	// after a quiet spell. 0 means one second's worth (Rate rounded up, at
	// least 1).
	Burst int
	// Chunk is how many tokens a process takes from the shared bucket in
	// one statement. 0 means a tenth of Burst, rounded up. Larger chunks
	// mean fewer statements and a larger overshoot (docs: each process may
	// hold up to Chunk-1 tokens taken earlier).
	Chunk int
}

// Off reports whether the limit is turned off.
func (l Limit) Off() bool { return l.Rate == 0 }

// Config holds the limits of both modes. Its zero value turns rate
// limiting off.
type Config struct {
	Production Limit
	Sandbox    Limit
}

// DefaultConfig is what `serve` uses unless told otherwise.
func DefaultConfig() Config {
	return Config{Production: Limit{Rate: DefaultProductionRate}, Sandbox: Limit{Rate: DefaultSandboxRate}}
}

// Off reports whether both modes are unlimited.
func (c Config) Off() bool { return c.Production.Off() && c.Sandbox.Off() }

// Environment variables of the serve flags (RegisterFlags).
const (
	EnvProductionRate  = "RATE_LIMIT_PRODUCTION"
	EnvProductionBurst = "RATE_LIMIT_PRODUCTION_BURST"
	EnvSandboxRate     = "RATE_LIMIT_SANDBOX"
	EnvSandboxBurst    = "RATE_LIMIT_SANDBOX_BURST"
)

// RegisterFlags adds the limits' flags to fs. Each flag's default is its
// environment variable's value when set (getenv, e.g. os.Getenv), else the
// value already in c. An environment value that does not parse is an error.
func (c *Config) RegisterFlags(fs *flag.FlagSet, getenv func(string) string) error {
	f := flagenv.New(fs, getenv)
	rate := func(p *float64, name, env, mode string) {
		f.Float(p, name, env, "requests per second per merchant in "+mode+
			" mode, shared by every server process on the database (0 = no limit)")
	}
	burst := func(p *int, name, env, mode string) {
		f.Int(p, name, env, "requests a merchant may send at once in "+mode+
			" mode (0 = one second's worth)")
	}
	rate(&c.Production.Rate, "rate-limit-production", EnvProductionRate, "production")
	burst(&c.Production.Burst, "rate-limit-production-burst", EnvProductionBurst, "production")
	rate(&c.Sandbox.Rate, "rate-limit-sandbox", EnvSandboxRate, "sandbox")
	burst(&c.Sandbox.Burst, "rate-limit-sandbox-burst", EnvSandboxBurst, "sandbox")
	return f.Err()
}

// Validate refuses negative or unusable values.
func (c Config) Validate() error {
	for _, m := range []struct {
		name string
		l    Limit
	}{{"production", c.Production}, {"sandbox", c.Sandbox}} {
		l := m.l
		switch {
		case l.Rate < 0 || math.IsNaN(l.Rate) || math.IsInf(l.Rate, 0):
			return fmt.Errorf("ratelimit: %s rate must be a number >= 0, got %v", m.name, l.Rate)
		case l.Rate > 0 && l.Rate > 1e6:
			return fmt.Errorf("ratelimit: %s rate must be at most 1000000 per second, got %v", m.name, l.Rate)
		case l.Burst < 0:
			return fmt.Errorf("ratelimit: %s burst must be >= 0, got %d", m.name, l.Burst)
		case l.Chunk < 0:
			return fmt.Errorf("ratelimit: %s chunk must be >= 0, got %d", m.name, l.Chunk)
		}
	}
	return nil
}

// Limit returns the limit of the mode.
func (c Config) Limit(livemode bool) Limit {
	if livemode {
		return c.Production
	}
	return c.Sandbox
}

// params is a limit in the integer units the shared bucket is kept in.
type params struct {
	limit    Limit // as configured, defaults filled in
	interval int64 // microseconds per token (the emission interval)
	burst    int64
	chunk    int64
	tau      int64 // burst * interval: how far ahead of now the bucket may be booked
}

// WithDefaults returns l with its zero Burst and Chunk replaced by the
// values it runs with (a limit that is off is returned as it is).
func (l Limit) WithDefaults() Limit {
	if l.Off() {
		return l
	}
	if l.Burst == 0 {
		l.Burst = max(1, int(math.Ceil(l.Rate)))
	}
	if l.Chunk == 0 {
		l.Chunk = (l.Burst + 9) / 10
	}
	l.Chunk = min(l.Chunk, l.Burst)
	return l
}

// newParams fills in a limit's defaults; nil when the limit is off.
func newParams(l Limit) *params {
	if l.Off() {
		return nil
	}
	l = l.WithDefaults()
	interval := max(1, int64(math.Round(float64(time.Second/time.Microsecond)/l.Rate)))
	return &params{limit: l, interval: interval, burst: int64(l.Burst), chunk: int64(l.Chunk),
		tau: int64(l.Burst) * interval}
}
