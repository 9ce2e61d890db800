package cable

import (
	"context"
)

// logsChannel is the live request log (`logs tail` in the CLI's history):
// each request of the caller's sandbox as {method, path, status,
// duration_ms, request_id}.
const logsChannel = "Cli::LogsChannel"

// logsSub is a subscription to the request log.
type logsSub struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// openLogs tails the caller's sandbox: confirm_subscription, then one
// message per request. A tailer that falls behind is disconnected.
func (c *conn) openLogs(cmd command) subscription {
	ctx, cancel := context.WithCancel(c.ctx)
	records, err := c.h.merchant.TailRequests(ctx)
	if err != nil {
		cancel()
		c.refused("request log refused", err)
		return nil
	}
	s := &logsSub{cancel: cancel, done: make(chan struct{})}
	if c.write(subscriptionStatus{Identifier: cmd.Identifier, Type: typeConfirm}) != nil {
		cancel()
		close(s.done)
		return s
	}
	c.wg.Go(func() {
		defer close(s.done)
		for rec := range records {
			if c.write(dataFrame{Identifier: cmd.Identifier, Message: rec}) != nil {
				return
			}
		}
		if ctx.Err() == nil {
			c.disconnect("the request log stopped (the client fell behind, or the server is stopping); reconnect to tail it again")
		}
	})
	return s
}

// perform: the log takes no messages.
func (s *logsSub) perform(string) {}

func (s *logsSub) stop(bool) {
	s.cancel()
	<-s.done
}
