package testenv

import (
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
)

// WithRateLimits turns on rate limits per merchant and mode (off by
// default in tests).
func WithRateLimits(cfg ratelimit.Config) Option {
	return func(o *app.Options) { o.RateLimits = cfg }
}
