// Package webhook holds the pure rules of webhook delivery: the code that
// subscribes to every event type (the catalogue of the others is the
// declared event types, events.Declarations), the signatures a receiver
// verifies, the retry schedule and which network addresses a delivery may
// reach. No I/O: the operation layer (resolvers/webhooks) does the
// delivering.
package webhook
