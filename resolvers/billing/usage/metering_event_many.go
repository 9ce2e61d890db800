package usage

import (
	"context"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// writeGroup writes a group's calls, one transaction per merchant and
// mode, and fills outs (one per call). A transaction that fails hands its
// calls back to be written alone: none of them is answered from it.
func (es *MeteringEvents) writeGroup(calls []*ingestCall, outs []ingestOutcome) {
	byScope := map[store.Scope][]int{}
	var scopes []store.Scope
	for i, c := range calls {
		if _, ok := byScope[c.p.Scope]; !ok {
			scopes = append(scopes, c.p.Scope)
		}
		byScope[c.p.Scope] = append(byScope[c.p.Scope], i)
	}
	for _, s := range scopes {
		idx := byScope[s]
		part := make([]*ingestCall, len(idx))
		for j, i := range idx {
			part[j] = calls[i]
		}
		lead := part[0]
		var got []ingestOutcome
		err := op.Together(context.WithoutCancel(lead.ctx), es.svc.Kit, lead.p, func(ctx context.Context, w *op.W) error {
			var err error
			got, err = es.ingestMany(ctx, w, part)
			return err
		})
		for j, i := range idx {
			if err != nil {
				outs[i] = ingestOutcome{alone: true}
			} else {
				outs[i] = got[j]
			}
		}
	}
}

// ingestPayerKey is a payer and an event name as a request names them.
type ingestPayerKey struct{ customer, account, name string }

// ingestMany records the calls' events in w, by the rules of Create: each
// call's payer is read once per group with the usage lock shared, an
// event of a payer on a test clock or with a threshold is written alone
// (its time is the clock's, its threshold charges in its own write), a
// reference already recorded (or recorded twice in the group) answers
// the original, and an event in a billed window is refused. Rows are
// inserted in (event name, reference) order, so two groups inserting the
// same references wait for each other rather than deadlock. A call's own
// refusal (its payer, its timestamp) is its answer; an error of the
// statements fails the whole group.
func (es *MeteringEvents) ingestMany(ctx context.Context, w *op.W, calls []*ingestCall) ([]ingestOutcome, error) {
	outs := make([]ingestOutcome, len(calls))
	payers := make([]*usagePayer, len(calls))
	read := map[ingestPayerKey]*usagePayer{}
	refused := map[ingestPayerKey]error{}
	for i, c := range calls {
		k := ingestPayerKey{deref(c.in.Customer), deref(c.in.Account), *c.in.EventName}
		if _, done := read[k]; !done && refused[k] == nil {
			p, err := readPayer(ctx, w.Tx, c.in.Customer, c.in.Account,
				payerQuery{Lock: true, EventName: c.in.EventName, Threshold: es.afterIngest != nil})
			if err != nil && apierr.As(err) == nil {
				return nil, err
			}
			read[k], refused[k] = p, err
		}
		switch p := read[k]; {
		case refused[k] != nil:
			outs[i].err = refused[k]
		case p.ClockTime != nil || p.ThresholdID != nil:
			outs[i].alone = true
		default:
			payers[i] = p
		}
	}
	now := w.Now()
	meters := map[string]uuid.UUID{}
	first := map[[2]string]int{}
	sameAs := map[int]int{}
	var rows []*models.MeteringEvent
	for i, c := range calls {
		p := payers[i]
		if p == nil {
			continue
		}
		at, err := ingestTime(now, c.in.Timestamp)
		if err != nil {
			outs[i].err = err
			continue
		}
		key := [2]string{*c.in.EventName, *c.in.Reference}
		if j, dup := first[key]; dup {
			sameAs[i] = j
			continue
		}
		first[key] = i
		meter, err := es.groupMeter(ctx, w, meters, p, *c.in.EventName)
		if err != nil {
			return nil, err
		}
		ev := newMeteringEvent(now, at, meter, p, c.in)
		rows = append(rows, ev)
		outs[i].ev = ev
	}
	inserted, err := insertEvents(ctx, w, rows)
	if err != nil {
		return nil, err
	}
	for i, c := range calls {
		if outs[i].ev == nil || inserted[outs[i].ev.ID] {
			continue
		}
		if outs[i].ev, err = originalEvent(ctx, w, *c.in.EventName, *c.in.Reference); err != nil {
			if apierr.As(err) == nil {
				return nil, err
			}
			outs[i].ev, outs[i].err = nil, err
		}
	}
	for i, j := range sameAs {
		outs[i] = outs[j]
	}
	return outs, nil
}

// groupMeter is the meter of name: the payer read's, else made once per
// group.
func (es *MeteringEvents) groupMeter(ctx context.Context, w *op.W, meters map[string]uuid.UUID, p *usagePayer, name string) (uuid.UUID, error) {
	if p.MeterID != nil {
		return *p.MeterID, nil
	}
	if id, ok := meters[name]; ok {
		return id, nil
	}
	id, err := meterID(ctx, w, name)
	if err != nil {
		return uuid.Nil, err
	}
	meters[name] = *id
	return *id, nil
}

// insertEvents inserts rows in (event name, reference) order, each
// unless its reference is recorded (or its window billed: the trigger
// skips it), and answers the ids it recorded.
func insertEvents(ctx context.Context, w *op.W, rows []*models.MeteringEvent) (map[uuid.UUID]bool, error) {
	inserted := map[uuid.UUID]bool{}
	if len(rows) == 0 {
		return inserted, nil
	}
	sorted := append([]*models.MeteringEvent(nil), rows...)
	sort.Slice(sorted, func(a, b int) bool {
		if sorted[a].EventName != sorted[b].EventName {
			return sorted[a].EventName < sorted[b].EventName
		}
		return sorted[a].Reference < sorted[b].Reference
	})
	var got []uuid.UUID
	err := store.InsertModel(w.Tx, sorted).On("CONFLICT (merchant_id, livemode, event_name, reference) DO NOTHING").
		Returning("id").Scan(ctx, &got)
	if err != nil && !store.IsNoRows(err) {
		return nil, err
	}
	for _, id := range got {
		inserted[id] = true
	}
	return inserted, nil
}

// ingestTime is an event's instant: the one asked, at most an hour past
// now, else now to the second.
func ingestTime(now time.Time, asked *models.UsageTime) (time.Time, error) {
	if asked == nil {
		return now.UTC().Truncate(time.Second), nil
	}
	if asked.Time.After(now.Add(maxUsageAhead)) {
		return time.Time{}, apierr.FieldError("timestamp", "must not be more than an hour after the payer's current time")
	}
	return asked.Time, nil
}

// newMeteringEvent is the row of an event recorded at now.
func newMeteringEvent(now, at time.Time, meter uuid.UUID, p *usagePayer, in *models.CreateMeteringEventInput) *models.MeteringEvent {
	return &models.MeteringEvent{ID: ids.New(now), MeterID: meter, EventName: *in.EventName, Reference: *in.Reference,
		CustomerID: p.CustomerID, AccountID: p.AccountID, Value: *in.Value, MarkupPercentage: in.MarkupPercentage,
		Timestamp: models.ISOTime{Time: at}, Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
