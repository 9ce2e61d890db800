package op

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/idempotency"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// Spec describes one mutation to the write path.
type Spec struct {
	// Name is the operation's stable name ("account.update"). It is part of
	// the idempotency fingerprint: one key cannot replay another operation.
	Name string
	// Allow lists the credential kinds that may call the operation.
	Allow []auth.Kind
	// Params are the operation's parameters as parsed, path ids included.
	// Their JSON is the idempotency fingerprint, so the same parameters
	// match however the client spelled, ordered or spaced them.
	Params any
	// Provider names the external provider the operation needs ("identity",
	// "card processor"). None ships for production mode (API-DECISIONS §1),
	// so there the write answers 503 provider_not_configured before its
	// transaction opens: the refusal costs no lock and no statement.
	Provider string
	// Check validates the input, before the transaction opens, reporting
	// every field problem at once: a refused request costs no lock and no
	// statement beyond authentication, and is never recorded under its
	// Idempotency-Key.
	Check func() error
}

// gate refuses, before any transaction, what the operation declares it
// cannot serve: production mode without its provider, invalid input.
func (s Spec) gate(p *auth.Principal) error {
	if s.Provider != "" && p.Scope.Livemode {
		return &apierr.Error{Status: http.StatusServiceUnavailable, Code: apierr.CodeProviderNotConfigured,
			Message: "No live " + s.Provider + " provider is configured on this server"}
	}
	ranges := models.CheckRanges(s.Params)
	var checked error
	if s.Check != nil {
		checked = s.Check()
	}
	return mergeValidation(ranges, checked)
}

// mergeValidation reports the range problems of the parameters together
// with the input check's, every field at once. A field out of range keeps
// only its range problem: what the check said of it was said of a number
// that cannot be stored. An error other than a validation wins as it is.
func mergeValidation(ranges, checked error) error {
	if ranges == nil {
		return checked
	}
	if checked == nil {
		return ranges
	}
	r, c := apierr.As(ranges), apierr.As(checked)
	if c == nil || c.Code != apierr.CodeValidation || c.Fields == nil {
		return checked
	}
	problems := map[string][]string{}
	order := []string{}
	for path, p := range r.Fields {
		problems[path] = p
	}
	for path, p := range c.Fields {
		if _, ok := problems[path]; !ok {
			problems[path] = p
		}
	}
	for path := range problems {
		order = append(order, path)
	}
	sort.Strings(order)
	return apierr.Validation(problems, order)
}

// W is one running write: the caller, the transaction bound to the
// caller's merchant and mode, the write's time, and the events it emits.
type W struct {
	Tx *store.Tenant
	P  *auth.Principal

	kit    *Kit
	clk    clock.Clock
	jobs   *jobs.Engine
	now    time.Time
	events *emitted
	// dueEffect: the write applies an effect at the instant it fell due
	// (AtDueInstant), which no clock read moves.
	dueEffect bool
}

// emitted are the events of a transaction, in the order they were
// emitted, shared by every W of it (W.At).
type emitted struct{ list []*events.Event }

// newW is a write of p in tx.
func newW(k *Kit, tx *store.Tenant, p *auth.Principal) *W {
	return &W{Tx: tx, P: p, kit: k, clk: k.Clock, jobs: k.Jobs, events: &emitted{}}
}

// At is another write inside w's transaction, whose time is at: a
// background run that applies several due effects in one transaction (a
// test clock's continuation) gives each effect its own W, at the instant
// it fell due. Their events join w's, in the order emitted, and commit
// with them.
func (w *W) At(at time.Time) *W {
	return &W{Tx: w.Tx, P: w.P, kit: w.kit, clk: w.clk, jobs: w.jobs, now: at, events: w.events}
}

// Now is the write's time. The clock is read once, at the first call, and
// every stamp and event of the write carries that time. Take the write's
// row locks before the first call: a write that waited for a lock then
// stamps a later time than the one it waited for, so stamps follow commit
// order.
func (w *W) Now() time.Time {
	if w.now.IsZero() {
		w.now = w.clk.Now()
	}
	return w.now
}

// AtClockTime makes t, the frozen time of the test clock the write's
// objects are bound to, the write's time: every stamp and event of the
// write carries it, as if the clock were the server's. Call it before the
// first Now; a write whose time is already read cannot move it (that
// would stamp one write at two times).
func (w *W) AtClockTime(t time.Time) error {
	if !w.now.IsZero() && !w.now.Equal(t) {
		return fmt.Errorf("op: the write's time was read (%s) before its clock's (%s)", w.now, t)
	}
	w.now = t
	return nil
}

// Emit records an event of typ on the object rendered (as REST renders it),
// written with the change when the write commits. Events keep the order in
// which they were emitted. typ is a declared type (events.Declare), so
// every event emitted is one the webhook catalogue lists.
func (w *W) Emit(typ events.Type, objectID uuid.UUID, rendered json.RawMessage, previous map[string]any) {
	w.events.list = append(w.events.list, events.New(w.Now(), typ, objectID, rendered, previous))
}

// EmitObject renders obj once and emits typ for it with no previous
// attributes: the announcement of a creation, a deletion or a change that
// carries no previous_attributes, written once instead of at every write.
func (w *W) EmitObject(typ events.Type, objectID uuid.UUID, obj any) error {
	rendered, err := events.Render(obj)
	if err != nil {
		return err
	}
	w.Emit(typ, objectID, rendered, nil)
	return nil
}

// Emitted are the events the write has emitted so far, in order: what a
// test clock's advance reports of each effect it applied.
func (w *W) Emitted() []*events.Event { return w.events.list }

// Write runs one mutation through the write path, the only way the
// operation layer changes state:
//
//  1. authorize the credential kind (401/403 before anything else), then
//     refuse what the Spec declares it cannot serve (a missing provider,
//     invalid input), before any transaction;
//  2. open the transaction, bound to the caller's merchant and mode;
//  3. when the request carries an Idempotency-Key, claim it and replay a
//     committed result (or refuse a different request under the key);
//  4. run fn, the operation's rules: it locks, reads the time once
//     (W.Now), applies the change, derives state once, persists and emits;
//  5. write the emitted events, in one statement;
//  6. record the result under the key;
//
// all in that one transaction. An error from fn rolls everything back,
// events and key included, so a refused or failed request leaves nothing
// behind and a retry runs anew.
func Write[Out any](ctx context.Context, k *Kit, s Spec, fn func(ctx context.Context, w *W) (Out, error)) (Out, error) {
	var out Out
	p, err := auth.Require(ctx, s.Allow...)
	if err != nil {
		return out, err
	}
	if err := s.gate(p); err != nil {
		return out, err
	}
	// The server secret is loaded before the transaction opens, whether or
	// not this request fingerprints: operations seal values with it inside
	// their transaction, and its first load takes a pool connection of its
	// own. Taken while holding the transaction's connection, a pool full of
	// such transactions would wait on itself forever.
	secret, err := k.Secret.Get(ctx)
	if err != nil {
		return out, err
	}
	req := idempotency.From(ctx)
	fp, err := fingerprint(req, secret, s)
	if err != nil {
		return out, err
	}
	err = k.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		var credential string
		if req != nil {
			credential = credentialScope(p)
			replayed, err := replay(ctx, k, tx, credential, req.Key, s.Name, fp, &out)
			if err != nil || replayed {
				req.Replayed = replayed
				return err
			}
		}
		w := newW(k, tx, p)
		if out, err = fn(ctx, w); err != nil {
			return err
		}
		if err := events.Insert(ctx, tx, w.Emitted()); err != nil {
			return err
		}
		if req == nil {
			return nil
		}
		return record(ctx, k, tx, credential, req.Key, s.Name, fp, w.Now(), out)
	})
	if err != nil {
		var zero Out
		return zero, err
	}
	return out, nil
}
