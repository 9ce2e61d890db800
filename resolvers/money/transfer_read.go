package money

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Transfers is the transfer family of the area: reads from the kit (each
// transfer with its payment methods and refunded amount, in one
// statement), Create (transfer_create.go), Confirm, Capture, Cancel and
// Update (transfer_actions.go) and CompleteThreeDSecure (transfer_3ds.go).
type Transfers struct {
	op.Reader[models.Transfer, TransferFilter]
	svc *Service
}

// transferTable reads transfers for the secret key and for the browser
// flow, whose chk_sess_ secret sees only its own session's transfers
// (any other is resource_missing, as for an unknown id).
var transferTable = &op.Table[models.Transfer]{Resource: "transfer", Allow: browserOrSecret,
	Visible: func(q *bun.SelectQuery, p *auth.Principal) *bun.SelectQuery {
		if p.Kind == auth.CheckoutSession {
			q = q.Where("?TableAlias.checkout_session_id = ?", p.SessionID)
		}
		return q
	},
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.ColumnExpr("(SELECT ch.amount_refunded FROM charges AS ch " +
			"WHERE ch.merchant_id = tr.merchant_id AND ch.id = tr.charge_id) AS amount_refunded").
			Relation("SourcePaymentMethod").Relation("DestinationPaymentMethod")
	},
	Derive: func(t *models.Transfer, _ time.Time) { t.Derive() }}

func newTransfers(s *Service) *Transfers {
	return &Transfers{Reader: op.Read[models.Transfer, TransferFilter](s.Kit, transferTable), svc: s}
}

// TransferFilter filters the transfer list.
type TransferFilter struct {
	Status    *models.TransferStatus `query:"status" filter:"status,enum"`
	AccountID *string                `query:"account_id" filter:"account_id,id"`
}

// Get returns one transfer as the caller may see it (forCaller).
func (ts *Transfers) Get(ctx context.Context, id string) (*models.Transfer, error) {
	t, err := ts.Reader.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return forCaller(auth.FromContext(ctx), t), nil
}

// ByIDs reads many transfers in one statement, as Get reads one.
func (ts *Transfers) ByIDs(ctx context.Context, idList []string) ([]*models.Transfer, []error) {
	rows, errs := ts.Reader.ByIDs(ctx, idList)
	p := auth.FromContext(ctx)
	for _, t := range rows {
		forCaller(p, t)
	}
	return rows, errs
}

// List is the one list of transfers, newest first. It is the secret
// key's: the browser flow reads its transfers by id only.
func (ts *Transfers) List(ctx context.Context, f TransferFilter, lp op.ListParams) (op.Page[*models.Transfer], error) {
	if _, err := auth.Require(ctx, secretOnly...); err != nil {
		return op.Page[*models.Transfer]{}, err
	}
	return ts.Reader.List(ctx, f, lp)
}

// Journals reads the ledger journals of transfers (two statements for any
// number), oldest first.
func (ts *Transfers) Journals(ctx context.Context, idList []string) ([][]ledger.Recorded, []error) {
	return ts.svc.journalsBy(ctx, idList, "transfer", func(tn *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]ledger.Recorded, error) {
		return ledger.JournalsOf(ctx, tn, RefTransfer, want)
	})
}
