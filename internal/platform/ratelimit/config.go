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

// Default limits of publishable keys and session secrets: half the secret
// key's rate per merchant in production (a checkout page makes a handful
// of requests per payment), the same in sandbox, and 5 per second with a
// burst of 20 per client address (a page load or a retrying checkout, not
// a flood).
const (
	DefaultClientProductionRate = 50
	DefaultClientSandboxRate    = 25
	DefaultClientAddressRate    = 5
	DefaultClientAddressBurst   = 20
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
	// Production and Sandbox are the secret key's budgets, per merchant.
	Production Limit
	Sandbox    Limit
	// Client is the separate budget of publishable keys and session
	// secrets, which sit in browsers: their floods must not spend the
	// secret key's budget.
	Client ClientLimits
}

// ClientLimits are the budgets of publishable keys and session secrets.
type ClientLimits struct {
	// Production and Sandbox are per merchant and mode, shared by every
	// client.
	Production Limit
	Sandbox    Limit
	// Address is per merchant, mode and client address (an IPv6 /64): one
	// client cannot take the whole client budget.
	Address Limit
}

// DefaultConfig is what `serve` uses unless told otherwise.
func DefaultConfig() Config {
	return Config{Production: Limit{Rate: DefaultProductionRate}, Sandbox: Limit{Rate: DefaultSandboxRate},
		Client: ClientLimits{Production: Limit{Rate: DefaultClientProductionRate}, Sandbox: Limit{Rate: DefaultClientSandboxRate},
			Address: Limit{Rate: DefaultClientAddressRate, Burst: DefaultClientAddressBurst}}}
}

// Off reports whether nothing is limited.
func (c Config) Off() bool {
	return c.Production.Off() && c.Sandbox.Off() && c.Client.Production.Off() && c.Client.Sandbox.Off() && c.Client.Address.Off()
}

// Environment variables of the serve flags (RegisterFlags).
const (
	EnvProductionRate  = "RATE_LIMIT_PRODUCTION"
	EnvProductionBurst = "RATE_LIMIT_PRODUCTION_BURST"
	EnvSandboxRate     = "RATE_LIMIT_SANDBOX"
	EnvSandboxBurst    = "RATE_LIMIT_SANDBOX_BURST"

	EnvClientProductionRate = "RATE_LIMIT_CLIENT_PRODUCTION"
	EnvClientSandboxRate    = "RATE_LIMIT_CLIENT_SANDBOX"
	EnvClientAddressRate    = "RATE_LIMIT_CLIENT_ADDRESS"
	EnvClientAddressBurst   = "RATE_LIMIT_CLIENT_ADDRESS_BURST"
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
	f.Float(&c.Client.Production.Rate, "rate-limit-client-production", EnvClientProductionRate,
		"requests per second per merchant of publishable keys and session secrets in production mode (0 = no limit)")
	f.Float(&c.Client.Sandbox.Rate, "rate-limit-client-sandbox", EnvClientSandboxRate,
		"requests per second per merchant of publishable keys and session secrets in sandbox mode (0 = no limit)")
	f.Float(&c.Client.Address.Rate, "rate-limit-client-address", EnvClientAddressRate,
		"requests per second of publishable keys and session secrets per merchant, mode and client address (0 = no limit)")
	f.Int(&c.Client.Address.Burst, "rate-limit-client-address-burst", EnvClientAddressBurst,
		"requests one client address may send at once with publishable keys and session secrets (0 = one second's worth)")
	return f.Err()
}

// Validate refuses negative or unusable values.
func (c Config) Validate() error {
	for _, m := range []struct {
		name string
		l    Limit
	}{{"production", c.Production}, {"sandbox", c.Sandbox}, {"client production", c.Client.Production},
		{"client sandbox", c.Client.Sandbox}, {"client address", c.Client.Address}} {
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
