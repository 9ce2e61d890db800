package models

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type ledgerJournalKind struct{}

func (ledgerJournalKind) objectName() string { return "ledger_journal" }

// FundingJournalKind is the kind of the journal a funding entry from
// source posts.
func FundingJournalKind(source FundingSource) LedgerJournalKind {
	return LedgerJournalKind("funding." + string(source))
}

// LedgerJournal is one balanced movement as the API shows it (a charge's
// trace, GraphQL's Transfer.ledgerJournals): its entries sum to zero per
// currency, debits positive and credits negative.
type LedgerJournal struct {
	ID      uuid.UUID                 `json:"id"`
	Object  Object[ledgerJournalKind] `json:"object"`
	Kind    LedgerJournalKind         `json:"kind"`
	Created wire.Timestamp            `json:"created"`
	Entries []LedgerEntry             `json:"entries"`
}

// LedgerEntry is one line of a journal.
type LedgerEntry struct {
	Party    string `json:"party"`
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// LedgerJournalsOf renders recorded journals.
func LedgerJournalsOf(rs []ledger.Recorded) []*LedgerJournal {
	out := make([]*LedgerJournal, len(rs))
	for i, r := range rs {
		j := &LedgerJournal{ID: r.ID, Kind: LedgerJournalKind(r.Kind), Created: wire.At(r.Created), Entries: make([]LedgerEntry, len(r.Entries))}
		for k, e := range r.Entries {
			j.Entries[k] = LedgerEntry{Party: e.Party, Currency: e.Currency, Amount: e.Amount}
		}
		out[i] = j
	}
	return out
}
