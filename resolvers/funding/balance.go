package funding

import (
	"context"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Ledger parties of the area (docs/funding.md, "The ledger").
const (
	// PartyInstantPayout is the instant-payout balance: what the merchant
	// has put aside for payouts, owed to it (a credit-normal account:
	// fundings credit it, payouts debit it). Its ledger balance never
	// rises above zero (migrations/00012): the money available is its
	// negation.
	PartyInstantPayout = "instant_payout"
	// PartyFundingClearing is what the merchant's funding bank account
	// owes for the fundings pulled from it.
	PartyFundingClearing = "funding_clearing"
	// RefPayout and RefFundingEntry name what journals of the area record.
	RefPayout       = "payout"
	RefFundingEntry = "payout_funding_entry"
)

// CodeBalanceInsufficient is the 422 of a payout the instant-payout
// balance cannot cover.
const CodeBalanceInsufficient = "balance_insufficient"

// overdrawnConstraint is the database's guarantee behind the balance
// check (migrations/00012_payouts_funding.up.sql).
const overdrawnConstraint = "ledger_instant_payout_not_overdrawn"

// lockAvailable takes the instant-payout balance's row lock for the
// write and answers what it holds: payouts of one merchant and mode
// serialize here, so what one checks is what it spends. The account's
// creation stamp is bookkeeping, read from the clock apart from the
// write's own time (which is read after the locks).
func (s *Service) lockAvailable(ctx context.Context, w *op.W, currency string) (int64, error) {
	balance, err := ledger.LockBalance(ctx, w.Tx, s.Clock.Now(), PartyInstantPayout, currency)
	return -balance, err
}

// insufficient is the 422 of a payout that needs more than is available.
func insufficient(available, needed int64, currency string) error {
	return apierr.Rule(CodeBalanceInsufficient, "The instant-payout balance ("+models.Dollars(available)+" "+currency+
		") does not cover this payout ("+models.Dollars(needed)+" "+currency+" with its fees); fund it with a top-up first",
		"amount", map[string]any{"available": available, "required": needed, "currency": currency})
}

// overdrawn turns the database's refusal to overdraw the balance into the
// same 422 (the lock makes it unreachable; it stays the last guard).
func overdrawn(err error) error {
	if c, ok := store.CheckViolation(err); ok && c == overdrawnConstraint {
		return apierr.Rule(CodeBalanceInsufficient, "The instant-payout balance does not cover this payout", "amount", nil)
	}
	return err
}

// fundingJournal credits the instant-payout balance with an entry's amount,
// pulled from the merchant's funding bank account:
//
//	debit  funding_clearing  amount
//	credit instant_payout    amount
func fundingJournal(e *models.FundingEntry) *ledger.Journal {
	return &ledger.Journal{ID: ids.New(e.Created.Time), Kind: string(models.FundingJournalKind(e.Source)), RefType: RefFundingEntry, RefID: e.ID,
		Entries: []ledger.Entry{
			ledger.Debit(PartyFundingClearing, e.Currency, e.Amount),
			ledger.Credit(PartyInstantPayout, e.Currency, e.Amount),
		}}
}

// payoutJournal is the movement of a sent payout: the instant-payout
// balance pays the amount and the fees the merchant bears, the network is
// owed what the recipient receives, and the fees are earned.
//
//	debit  instant_payout   amount + merchant_fee
//	credit payout_clearing  amount − customer_fee
//	credit platform_fees    the plan's fee
//	credit frame_fees       processor_fee
func payoutJournal(p *models.Payout, platformFee int64) *ledger.Journal {
	var mf, cf int64
	if p.MerchantFee != nil {
		mf, cf = *p.MerchantFee, *p.CustomerFee
	}
	c := p.Currency
	return &ledger.Journal{ID: ids.New(p.Created.Time), Kind: string(models.JournalPayoutSend), RefType: RefPayout, RefID: p.ID,
		Entries: []ledger.Entry{
			ledger.Debit(PartyInstantPayout, c, p.Amount+mf),
			ledger.Credit(money.PartyPayoutClearing, c, p.Amount-cf),
			ledger.Credit(money.PartyPlatformFees, c, platformFee),
			ledger.Credit(money.PartyFrameFees, c, p.ProcessorFee),
		}}
}
