package usage

import (
	"context"
	"fmt"
	"sync"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// Group commit of metering events. Ingest is the busiest write of the
// server and one event is little work beside its transaction (BEGIN, the
// payer's read, COMMIT: round trips and a WAL flush), so requests that
// arrive while others are being written are written together, in one
// transaction, by one of them. What each request is answered does not
// depend on the grouping: every event is recorded or refused by the same
// rules as alone (metering_event_many.go), and a group that cannot commit
// hands each of its requests back to be written alone.
//
// There is no timer and no background goroutine: a request that finds
// fewer than maxIngestLeaders groups being written leads one at once, with
// whatever requests are queued; otherwise it queues, and the next leader
// takes it. A leader writes one group, then hands leadership to the first
// queued request, so no request leads for long and none waits for a
// timer. Under one request at a time, every group is that request alone.

const (
	// maxIngestLeaders bounds the groups written at once (each holds a
	// database connection while it writes). Two keep one group's server
	// work overlapping another's statements; more make smaller groups and
	// more commits for the same events (docs/performance.md, "Usage
	// billing").
	maxIngestLeaders = 2
	// maxIngestGroup bounds the requests of one group.
	maxIngestGroup = 128
)

// ingestGroup queues the requests waiting for a leader.
type ingestGroup struct {
	es      *MeteringEvents
	mu      sync.Mutex
	queue   []*ingestCall
	leaders int
}

// ingestCall is one admitted request.
type ingestCall struct {
	ctx  context.Context
	p    *auth.Principal
	in   *models.CreateMeteringEventInput
	done chan ingestOutcome // buffered: its writer never waits
}

// ingestOutcome answers a call: its event or error, or that it leads the
// next group, or that it must be written alone.
type ingestOutcome struct {
	ev    *models.MeteringEvent
	err   error
	lead  bool
	alone bool
}

// submit writes the call in a group and returns its outcome (alone: the
// caller writes it through op.Write).
func (g *ingestGroup) submit(ctx context.Context, p *auth.Principal, in *models.CreateMeteringEventInput) ingestOutcome {
	c := &ingestCall{ctx: ctx, p: p, in: in, done: make(chan ingestOutcome, 1)}
	g.mu.Lock()
	if g.leaders < maxIngestLeaders {
		g.leaders++
		g.mu.Unlock()
		return g.lead(c)
	}
	g.queue = append(g.queue, c)
	g.mu.Unlock()
	out := <-c.done
	if out.lead {
		return g.lead(c)
	}
	return out
}

// lead writes a group of c and the queued calls, answers them, and hands
// leadership on (or gives it up when nobody waits).
func (g *ingestGroup) lead(c *ingestCall) (own ingestOutcome) {
	g.mu.Lock()
	n := min(len(g.queue), maxIngestGroup-1)
	calls := append([]*ingestCall{c}, g.queue[:n]...)
	g.queue = append([]*ingestCall(nil), g.queue[n:]...)
	g.mu.Unlock()
	defer g.handOn()
	outs := make([]ingestOutcome, len(calls))
	func() {
		defer func() {
			if r := recover(); r != nil {
				for i := range outs {
					outs[i] = ingestOutcome{err: fmt.Errorf("billing: metering event group: %v", r)}
				}
			}
		}()
		g.es.writeGroup(calls, outs)
	}()
	for i, call := range calls[1:] {
		call.done <- outs[i+1]
	}
	return outs[0]
}

// handOn passes leadership to the first queued call, or releases it.
func (g *ingestGroup) handOn() {
	g.mu.Lock()
	if len(g.queue) == 0 {
		g.leaders--
		g.mu.Unlock()
		return
	}
	next := g.queue[0]
	g.queue = g.queue[1:]
	g.mu.Unlock()
	next.done <- ingestOutcome{lead: true}
}
