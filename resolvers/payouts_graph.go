package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Payouts, funding schedules and funding entries are nodes loaded in
// batches; PayoutFundingSchedule.entries loads every parent's children in
// one statement (Account.payouts is a page edge,
// account_payouts_graph.go).
var (
	payoutLoader          = nodeLoader("payout", func(r *Resolver) batch[*models.Payout] { return r.Svc.Funding.Payouts.ByIDs })
	fundingScheduleLoader = nodeLoader("payoutFundingSchedule", func(r *Resolver) batch[*models.FundingSchedule] { return r.Svc.Funding.Schedules.ByIDs })
	fundingEntryLoader    = nodeLoader("payoutFundingEntry", func(r *Resolver) batch[*models.FundingEntry] { return r.Svc.Funding.Entries.ByIDs })
	scheduleEntriesLoader = loader("scheduleEntries", func(r *Resolver) batch[[]*models.FundingEntry] { return r.Svc.Funding.Entries.OfSchedules })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(paymentMethodLoader, "paymentMethod", func(p *models.Payout) string { return p.PaymentMethodID.String() })
	_ = edge(accountLoader, "account", func(p *models.Payout) string { return p.AccountID.String() })
	_ = edge(billingAgreementLoader, "billingAgreement", func(p *models.Payout) string { return idKey(p.BillingAgreementID) })
	_ = edge(fundingScheduleLoader, "schedule", func(e *models.FundingEntry) string { return idKey(e.ScheduleID) })
	_ = edge(scheduleEntriesLoader, "entries", func(s *models.FundingSchedule) string { return s.ID.String() })
)

func payouts(ctx context.Context, r *Resolver, first *int, after *string, f *funding.PayoutFilter) (*model.PayoutConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Funding.Payouts.List, filterOf(f, same[funding.PayoutFilter]),
		first, after, payoutLoader, func(cursor string, p *models.Payout) *model.PayoutEdge {
			return &model.PayoutEdge{Cursor: cursor, Node: p}
		})
	return &model.PayoutConnection{Edges: edges, PageInfo: info}, err
}

func fundingSchedules(ctx context.Context, r *Resolver, first *int, after *string) (*model.PayoutFundingScheduleConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Funding.Schedules.List, op.NoFilter{},
		first, after, fundingScheduleLoader, func(cursor string, s *models.FundingSchedule) *model.PayoutFundingScheduleEdge {
			return &model.PayoutFundingScheduleEdge{Cursor: cursor, Node: s}
		})
	return &model.PayoutFundingScheduleConnection{Edges: edges, PageInfo: info}, err
}

func fundingEntries(ctx context.Context, r *Resolver, first *int, after *string, f *funding.EntryFilter) (*model.PayoutFundingEntryConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Funding.Entries.List, filterOf(f, same[funding.EntryFilter]),
		first, after, fundingEntryLoader, func(cursor string, e *models.FundingEntry) *model.PayoutFundingEntryEdge {
			return &model.PayoutFundingEntryEdge{Cursor: cursor, Node: e}
		})
	return &model.PayoutFundingEntryConnection{Edges: edges, PageInfo: info}, err
}

// topUpEntry is a top-up's entry, created now or by an earlier top-up of
// the same body key.
func topUpEntry(ctx context.Context, r *Resolver, in *models.CreateTopUpInput) (*models.FundingEntry, error) {
	t, err := r.Svc.Funding.Entries.TopUp(ctx, in)
	if err != nil {
		return nil, err
	}
	return t.Entry, nil
}
