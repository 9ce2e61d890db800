// Package webhook holds the pure rules of webhook delivery: the catalogue of
// event types an endpoint may subscribe to, the signatures a receiver
// verifies, the retry schedule and which network addresses a delivery may
// reach. No I/O: the operation layer (resolvers/webhooks) does the
// delivering.
package webhook
