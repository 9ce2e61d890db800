package webhooks

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// streamBuffer bounds the events waiting for one slow subscriber; past it
// the subscription ends (the client refetches with the events list).
const streamBuffer = 256

// StreamEvents streams the caller's new events, as they commit, until ctx
// ends: a dashboard's live feed (the GraphQL subscription). types, when
// given, keeps only those event types. One connection per process listens
// for every subscriber (LISTEN events_created, notified by the events
// trigger); each subscriber reads its events through its own tenant scope.
func (s *Service) StreamEvents(ctx context.Context, types []string) (<-chan *events.Event, error) {
	p, err := auth.Require(ctx, managers...)
	if err != nil {
		return nil, err
	}
	sub, err := s.eventHub().Subscribe(ctx, p.Scope)
	if err != nil {
		return nil, err
	}
	out := make(chan *events.Event)
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	go func() {
		defer close(out)
		for id := range sub.C {
			evs, errs := s.Events.ByIDs(ctx, []string{id.String()})
			if errs[0] != nil || (len(want) > 0 && !want[evs[0].Type]) {
				continue
			}
			select {
			case out <- evs[0]:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// Close stops the area's listeners (App.Close): the event stream's and the
// listen sessions'.
func (s *Service) Close() {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.eventNotes != nil {
		s.eventNotes.Close()
		s.eventNotes = nil
	}
	if s.listenNotes != nil {
		s.listenNotes.Close()
		s.listenNotes = nil
	}
}

// eventHub is the process's listener of events_created, started by the
// first subscriber.
func (s *Service) eventHub() *notify.Hub[store.Scope, uuid.UUID] {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.eventNotes == nil {
		s.eventNotes = notify.New(s.DB, notify.Config[store.Scope, uuid.UUID]{Channel: "events_created",
			Parse: parseEventCreated, Buffer: streamBuffer, Logger: s.Logger})
	}
	return s.eventNotes
}

// parseEventCreated reads the events trigger's notification:
// "<merchant>|<livemode>|<event id>".
func parseEventCreated(payload string) (store.Scope, uuid.UUID, bool) {
	parts := strings.Split(payload, "|")
	if len(parts) != 3 {
		return store.Scope{}, uuid.UUID{}, false
	}
	m, err1 := uuid.Parse(parts[0])
	id, err2 := uuid.Parse(parts[2])
	if err1 != nil || err2 != nil {
		return store.Scope{}, uuid.UUID{}, false
	}
	return store.Scope{MerchantID: m, Livemode: parts[1] == "true"}, id, true
}
