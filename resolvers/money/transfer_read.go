package money

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// GetTransfer returns one transfer with its payment methods (one
// statement).
func (s *Service) GetTransfer(ctx context.Context, id string) (*models.Transfer, error) {
	p, err := auth.Require(ctx, browserOrSecret...)
	if err != nil {
		return nil, err
	}
	t, err := selectTransfer(ctx, s.DB.Tenant(p.Scope), id, false)
	if err != nil {
		return nil, err
	}
	if err := inScope(p, t); err != nil {
		return nil, err
	}
	return forCaller(p, t), nil
}

// TransfersByIDs reads many transfers in one statement, as GetTransfer
// reads one: a checkout secret finds only its own session's transfers,
// their payment methods redacted.
func (s *Service) TransfersByIDs(ctx context.Context, idList []string) ([]*models.Transfer, []error) {
	p, err := auth.Require(ctx, browserOrSecret...)
	return op.ByIDs(idList, "transfer", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Transfer, error) {
		var rows []*models.Transfer
		q := withMethods(s.DB.Tenant(p.Scope).Select(&rows)).Where("tr.id IN (?)", bun.In(want))
		if p.Kind == auth.CheckoutSession {
			q = q.Where("tr.checkout_session_id = ?", p.SessionID)
		}
		if err := q.Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Transfer, len(rows))
		for _, r := range rows {
			r.Derive()
			found[r.ID] = forCaller(p, r)
		}
		return found, nil
	})
}

// TransferFilter filters the transfer list.
type TransferFilter struct {
	Status, AccountID *string
}

// ListTransfers is the one list of transfers, newest first.
func (s *Service) ListTransfers(ctx context.Context, f TransferFilter, lp op.ListParams) (op.Page[*models.Transfer], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Transfer]{}, err
	}
	q := withMethods(s.DB.Tenant(p.Scope).Select((*models.Transfer)(nil)))
	if f.Status != nil {
		q = q.Where("tr.status = ?", *f.Status)
	}
	if f.AccountID != nil {
		uid, ok := ids.Parse(*f.AccountID)
		if !ok {
			return op.Page[*models.Transfer]{}, apierr.FieldError("account_id", "is not a valid id")
		}
		q = q.Where("tr.account_id = ?", uid)
	}
	page, err := op.List(ctx, q, "tr", lp, func(t *models.Transfer) op.Position {
		return op.Position{Created: t.Created.Time, ID: t.ID}
	})
	for _, t := range page.Items {
		t.Derive()
	}
	return page, err
}

// JournalsOfTransfers reads the ledger journals of transfers (two
// statements for any number), oldest first.
func (s *Service) JournalsOfTransfers(ctx context.Context, idList []string) ([][]ledger.Recorded, []error) {
	return s.journalsBy(ctx, idList, "transfer", func(tn *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]ledger.Recorded, error) {
		return ledger.JournalsOf(ctx, tn, RefTransfer, want)
	})
}

func withMethods(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr("tr.*").ColumnExpr("(SELECT ch.amount_refunded FROM charges AS ch " +
		"WHERE ch.merchant_id = tr.merchant_id AND ch.id = tr.charge_id) AS amount_refunded").
		Relation("SourcePaymentMethod").Relation("DestinationPaymentMethod")
}

func selectTransfer(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.Transfer, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("transfer", id)
	}
	tr := new(models.Transfer)
	q := withMethods(t.Select(tr)).Where("tr.id = ?", uid)
	if lock {
		q = q.For("UPDATE OF tr")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("transfer", id)
		}
		return nil, err
	}
	tr.Derive()
	return tr, nil
}
