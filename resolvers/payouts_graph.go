package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
)

// Payouts, funding schedules and funding entries are nodes loaded in
// batches; Account.payouts and PayoutFundingSchedule.entries load every
// parent's children in one statement.
var (
	payoutLoader = loader("payout", func(r *Resolver) loaders.Fetch[*models.Payout] {
		return r.Svc.Funding.PayoutsByIDs
	})
	_                     = node(payoutLoader)
	fundingScheduleLoader = loader("payoutFundingSchedule", func(r *Resolver) loaders.Fetch[*models.FundingSchedule] {
		return r.Svc.Funding.SchedulesByIDs
	})
	_                  = node(fundingScheduleLoader)
	fundingEntryLoader = loader("payoutFundingEntry", func(r *Resolver) loaders.Fetch[*models.FundingEntry] {
		return r.Svc.Funding.EntriesByIDs
	})
	_                    = node(fundingEntryLoader)
	accountPayoutsLoader = loader("accountPayouts", func(r *Resolver) loaders.Fetch[[]*models.Payout] {
		return r.Svc.Funding.PayoutsOfAccounts
	})
	scheduleEntriesLoader = loader("scheduleEntries", func(r *Resolver) loaders.Fetch[[]*models.FundingEntry] {
		return r.Svc.Funding.EntriesOfSchedules
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountPayoutsLoader, "payouts", func(a *models.Account) string { return a.ID.String() })
	_ = edge(paymentMethodLoader, "paymentMethod", func(p *models.Payout) string { return p.PaymentMethodID.String() })
	_ = edge(accountLoader, "account", func(p *models.Payout) string { return p.AccountID.String() })
	_ = edge(billingAgreementLoader, "billingAgreement", func(p *models.Payout) string { return idKey(p.BillingAgreementID) })
	_ = edge(fundingScheduleLoader, "schedule", func(e *models.FundingEntry) string { return idKey(e.ScheduleID) })
	_ = edge(scheduleEntriesLoader, "entries", func(s *models.FundingSchedule) string { return s.ID.String() })
)

func payouts(ctx context.Context, r *Resolver, first *int, after *string, f *model.PayoutFilter) (*model.PayoutConnection, error) {
	filter := funding.PayoutFilter{}
	if f != nil {
		filter = funding.PayoutFilter{Status: f.Status, AccountID: f.AccountID}
	}
	page, err := r.Svc.Funding.ListPayouts(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, p := range page.Items {
		payoutLoader.Prime(ctx, p.ID.String(), p)
	}
	edges, info := connect(page, func(cursor string, p *models.Payout) *model.PayoutEdge {
		return &model.PayoutEdge{Cursor: cursor, Node: p}
	})
	return &model.PayoutConnection{Edges: edges, PageInfo: info}, nil
}

func fundingSchedules(ctx context.Context, r *Resolver, first *int, after *string) (*model.PayoutFundingScheduleConnection, error) {
	page, err := r.Svc.Funding.ListSchedules(ctx, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, s := range page.Items {
		fundingScheduleLoader.Prime(ctx, s.ID.String(), s)
	}
	edges, info := connect(page, func(cursor string, s *models.FundingSchedule) *model.PayoutFundingScheduleEdge {
		return &model.PayoutFundingScheduleEdge{Cursor: cursor, Node: s}
	})
	return &model.PayoutFundingScheduleConnection{Edges: edges, PageInfo: info}, nil
}

func fundingEntries(ctx context.Context, r *Resolver, first *int, after *string, f *model.PayoutFundingEntryFilter) (*model.PayoutFundingEntryConnection, error) {
	filter := funding.EntryFilter{}
	if f != nil {
		filter = funding.EntryFilter{ScheduleID: f.ScheduleID, Source: f.Source}
	}
	page, err := r.Svc.Funding.ListEntries(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, e := range page.Items {
		fundingEntryLoader.Prime(ctx, e.ID.String(), e)
	}
	edges, info := connect(page, func(cursor string, e *models.FundingEntry) *model.PayoutFundingEntryEdge {
		return &model.PayoutFundingEntryEdge{Cursor: cursor, Node: e}
	})
	return &model.PayoutFundingEntryConnection{Edges: edges, PageInfo: info}, nil
}

// topUpEntry is a top-up's entry, created now or by an earlier top-up of
// the same body key.
func topUpEntry(ctx context.Context, r *Resolver, in *models.CreateTopUpInput) (*models.FundingEntry, error) {
	t, err := r.Svc.Funding.CreateTopUp(ctx, in)
	if err != nil {
		return nil, err
	}
	return t.Entry, nil
}
