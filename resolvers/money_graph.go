package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Fee plans, billing agreements and transfers are nodes loaded in batches;
// Transfer.ledgerJournals loads every transfer's journals in two
// statements. A transfer's payment methods come in its own statement.
var (
	feePlanLoader          = nodeLoader("transferFeePlan", func(r *Resolver) batch[*models.TransferFeePlan] { return r.Svc.Money.FeePlans.ByIDs })
	billingAgreementLoader = nodeLoader("billingAgreement", func(r *Resolver) batch[*models.BillingAgreement] { return r.Svc.Money.Agreements.ByIDs })
	transferLoader         = nodeLoader("transfer", func(r *Resolver) batch[*models.Transfer] { return r.Svc.Money.Transfers.ByIDs })
	checkoutSessionLoader  = nodeLoader("checkoutSession", func(r *Resolver) batch[*models.CheckoutSession] { return r.Svc.Money.CheckoutSessions.ByIDs })
	transferJournalsLoader = loader("transferJournals", func(r *Resolver) batch[[]ledger.Recorded] { return r.Svc.Money.Transfers.Journals })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountLoader, "account", func(b *models.BillingAgreement) string { return idKey(b.AccountID) })
	_ = edge(accountLoader, "account", func(s *models.CheckoutSession) string { return s.AccountID.String() })
	_ = edge(billingAgreementLoader, "billingAgreement", func(t *models.Transfer) string { return idKey(t.BillingAgreementID) })
	_ = edge(feePlanLoader, "transferFeePlan", func(t *models.Transfer) string { return t.TransferFeePlanID.String() })
	_ = edge(accountLoader, "account", func(t *models.Transfer) string { return t.AccountID.String() })
	_ = edge(accountLoader, "seller", func(t *models.Transfer) string { return idKey(t.SellerID) })
	_ = edge(transferJournalsLoader, "ledgerJournals", func(t *models.Transfer) string { return t.ID.String() })
)

func transferJournals(ctx context.Context, t *models.Transfer) ([]*models.LedgerJournal, error) {
	rs, err := load(ctx, transferJournalsLoader, t.ID.String())
	if err != nil {
		return nil, err
	}
	return models.LedgerJournalsOf(rs), nil
}

// browserAnswer answers a create or confirm as REST does: under a
// checkout secret a recorded decline is an error whose extensions carry
// the decline code, status 402 and details.transfer_id
// (money.BrowserDecline).
func browserAnswer(t *models.Transfer, err error) func(context.Context) (*models.Transfer, error) {
	return func(ctx context.Context) (*models.Transfer, error) {
		if err == nil {
			err = money.BrowserDecline(ctx, t)
		}
		if err != nil {
			return nil, err
		}
		return t, nil
	}
}

// nextAction is a transfer's next_action in the graph's shape.
func nextAction(t *models.Transfer) *model.TransferNextAction {
	if t.NextAction == nil {
		return nil
	}
	return &model.TransferNextAction{Type: t.NextAction.Type, Source: t.NextAction.UsePlatformSDK["source"]}
}

// captureInput makes an omitted capture input a full capture.
func captureInput(in *models.CaptureTransferInput) *models.CaptureTransferInput {
	if in == nil {
		return &models.CaptureTransferInput{}
	}
	return in
}

func transferFeePlans(ctx context.Context, r *Resolver, first *int, after *string) (*model.TransferFeePlanConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.FeePlans.List, op.NoFilter{}, first, after, feePlanLoader,
		func(cursor string, p *models.TransferFeePlan) *model.TransferFeePlanEdge {
			return &model.TransferFeePlanEdge{Cursor: cursor, Node: p}
		})
	return &model.TransferFeePlanConnection{Edges: edges, PageInfo: info}, err
}

func billingAgreements(ctx context.Context, r *Resolver, first *int, after *string) (*model.BillingAgreementConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.Agreements.List, op.NoFilter{}, first, after, billingAgreementLoader,
		func(cursor string, a *models.BillingAgreement) *model.BillingAgreementEdge {
			return &model.BillingAgreementEdge{Cursor: cursor, Node: a}
		})
	// Each agreement came with its plan: the plan edge costs nothing more.
	for _, e := range edges {
		feePlanLoader.Prime(ctx, e.Node.FeePlan.ID.String(), e.Node.FeePlan)
	}
	return &model.BillingAgreementConnection{Edges: edges, PageInfo: info}, err
}

func transfers(ctx context.Context, r *Resolver, first *int, after *string, f *money.TransferFilter) (*model.TransferConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.Transfers.List, filterOf(f, same[money.TransferFilter]),
		first, after, transferLoader, func(cursor string, t *models.Transfer) *model.TransferEdge {
			return &model.TransferEdge{Cursor: cursor, Node: t}
		})
	return &model.TransferConnection{Edges: edges, PageInfo: info}, err
}
