package webhooks

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// callerLivemode is the mode the write will run in, known from the
// caller's credential before its transaction opens: an endpoint's url is
// checked against it (a production endpoint must be https) with the rest
// of its input, before any statement.
func callerLivemode(ctx context.Context) bool { return auth.FromContext(ctx).Scope.Livemode }
