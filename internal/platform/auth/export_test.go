package auth

import (
	"context"
	"sync"
)

// HoldListener makes c's listener wait before each attempt to (re)connect
// until release is called: tests keep it down with it.
func HoldListener(c *CredentialCache) (release func()) {
	gate := make(chan struct{})
	hook := func(ctx context.Context) error {
		select {
		case <-gate:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.beforeConnect.Store(&hook)
	var once sync.Once
	return func() { once.Do(func() { close(gate) }) }
}
