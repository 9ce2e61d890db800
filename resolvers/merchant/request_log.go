package merchant

import (
	"context"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/requestlog"
)

// UseRequestLog sets the process's request log feed; call it before
// serving.
func (s *Service) UseRequestLog(f *requestlog.Feed) { s.requests = f }

// TailRequests streams the requests of the caller's sandbox as they
// finish, from every server process, until ctx ends or the caller falls
// behind (the channel closes): method, path, status, duration and request
// id, never a body, a query or a header. Sandbox secret keys only.
func (s *Service) TailRequests(ctx context.Context) (<-chan *requestlog.Record, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	if p.Scope.Livemode {
		return nil, apierr.Forbidden("The request log is the sandbox's; tail it with a sandbox secret key")
	}
	if s.requests == nil {
		return nil, &apierr.Error{Status: http.StatusServiceUnavailable, Code: "request_log_off",
			Message: "This server does not serve the request log"}
	}
	return s.requests.Tail(ctx, p.Scope)
}
