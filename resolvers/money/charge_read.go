package money

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Charges is the charge family of the area: reads from the kit (each
// charge with its payment method, in one statement), Trace and Journals.
type Charges struct {
	op.Reader[models.Charge, op.NoFilter]
	svc *Service
}

var chargeTable = &op.Table[models.Charge]{Resource: "charge",
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.Relation("PaymentMethodDetails") },
	Derive:  func(ch *models.Charge, _ time.Time) { ch.Derive() }}

func newCharges(s *Service) *Charges {
	return &Charges{Reader: op.Read[models.Charge, op.NoFilter](s.Kit, chargeTable), svc: s}
}

// Trace returns a charge with every ledger journal that moved its
// money and the events of the objects it was made for, oldest first
// (GET /v1/charges/{id}/trace): four statements.
func (cs *Charges) Trace(ctx context.Context, id string) (*models.ChargeTrace, error) {
	ch, err := cs.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	tn := cs.Kit.DB.Tenant(auth.FromContext(ctx).Scope)
	journals, err := ledger.JournalsOfCharges(ctx, tn, []uuid.UUID{ch.ID})
	if err != nil {
		return nil, err
	}
	evs, err := traceEvents(ctx, tn, ch)
	if err != nil {
		return nil, err
	}
	return &models.ChargeTrace{Charge: ch, ChargeID: ch.ID, Events: evs,
		Ledger: models.ChargeLedger{Journals: models.LedgerJournalsOf(journals[ch.ID])}}, nil
}

// traceEvents reads the events of the charge, of the transfer, charge
// intent or invoice it was made for, and of its refunds and disputes, oldest first.
func traceEvents(ctx context.Context, tn *store.Tenant, ch *models.Charge) ([]models.TraceEvent, error) {
	objects := []uuid.UUID{ch.ID}
	for _, parent := range []*uuid.UUID{ch.TransferID, ch.ChargeIntentID, ch.InvoiceID} {
		if parent != nil {
			objects = append(objects, *parent)
		}
	}
	// The refunds' and disputes' events belong to the charge's story too:
	// their objects are found in the same statement.
	sc := tn.Scope()
	var rows []events.Event
	if err := tn.Select(&rows).WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("e.object_id IN (?)", bun.In(objects)).
			WhereOr("e.object_id IN (SELECT rf.id FROM refunds AS rf WHERE rf.merchant_id = ? AND rf.livemode = ? AND rf.charge_id = ?)",
				sc.MerchantID, sc.Livemode, ch.ID).
			WhereOr("e.object_id IN (SELECT dp.id FROM disputes AS dp WHERE dp.merchant_id = ? AND dp.livemode = ? AND dp.charge_id = ?)",
				sc.MerchantID, sc.Livemode, ch.ID)
	}).OrderExpr("e.created, e.id").Limit(maxTraceEvents).Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]models.TraceEvent, len(rows))
	for i, e := range rows {
		out[i] = models.TraceEvent{ID: e.ID, Type: e.Type, Created: e.Created, Data: e.Data}
	}
	return out, nil
}

// maxTraceEvents bounds a trace: a charge's story is a handful of events,
// but metadata updates could add many.
const maxTraceEvents = 1000

// Journals reads the ledger journals of charges (two statements
// for any number), oldest first.
func (cs *Charges) Journals(ctx context.Context, idList []string) ([][]ledger.Recorded, []error) {
	return cs.svc.journalsBy(ctx, idList, "charge", func(tn *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]ledger.Recorded, error) {
		return ledger.JournalsOfCharges(ctx, tn, want)
	})
}

// journalsBy batches a journal read keyed by resource id: every id gets a
// list, empty when nothing was journaled.
func (s *Service) journalsBy(ctx context.Context, idList []string, resource string,
	read func(*store.Tenant, []uuid.UUID) (map[uuid.UUID][]ledger.Recorded, error)) ([][]ledger.Recorded, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, resource, err, nil, func(want []uuid.UUID) (map[uuid.UUID][]ledger.Recorded, error) {
		got, err := read(s.DB.Tenant(p.Scope), want)
		if err != nil {
			return nil, err
		}
		for _, id := range want {
			if got[id] == nil {
				got[id] = []ledger.Recorded{}
			}
		}
		return got, nil
	})
}
