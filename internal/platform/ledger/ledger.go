// Package ledger is the double-entry ledger under every movement of money:
// accounts per merchant, mode, party and currency; journals of entries that
// always balance; balances that are the sum of their entries. It knows no
// resource: a journal names what it records by a type and an id.
//
// Amounts are int64 minor units. An entry's sign is its side: a debit is
// positive, a credit negative, so a journal balances when its entries sum
// to zero in every currency. The database enforces it too: a deferred
// constraint trigger refuses, at commit, a journal that does not balance
// or has fewer than two entries, entries and journals are append-only, and
// each entry adds itself to its account's balance under the account row's
// lock (migrations/00008_payments.up.sql).
package ledger

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Entry is one line of a journal: Amount (minor units, debit positive,
// credit negative) on Party's account in Currency.
type Entry struct {
	Party    string `json:"party"`
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// Debit is an entry of amount on the debit side of party's account.
func Debit(party, currency string, amount int64) Entry {
	return Entry{Party: party, Currency: currency, Amount: amount}
}

// Credit is an entry of amount on the credit side of party's account.
func Credit(party, currency string, amount int64) Entry {
	return Entry{Party: party, Currency: currency, Amount: -amount}
}

// Journal is one balanced movement.
type Journal struct {
	ID      uuid.UUID
	Kind    string // what moved: "charge.capture", "charge.release"...
	RefType string // what it records: "transfer"
	RefID   uuid.UUID
	// ChargeID names the charge whose money the journal moves (its
	// capture, refunds, disputes), so a charge's trace reads them at once.
	ChargeID    *uuid.UUID
	Description string
	Entries     []Entry
}

// ErrUnbalanced is returned for a journal whose entries do not sum to zero
// in some currency, or that has fewer than two non-zero entries.
var ErrUnbalanced = errors.New("ledger: journal does not balance")

// Compact drops zero entries (a fee of 0 moves nothing) and returns the
// journal's entries as they will be written.
func (j *Journal) Compact() {
	kept := j.Entries[:0]
	for _, e := range j.Entries {
		if e.Amount != 0 {
			kept = append(kept, e)
		}
	}
	j.Entries = kept
}

// Check verifies that the journal balances: at least two entries, each
// with a party, a three-letter currency and a non-zero amount, summing to
// zero per currency without overflowing.
func (j *Journal) Check() error {
	if len(j.Entries) < 2 {
		return fmt.Errorf("%w: %d entries", ErrUnbalanced, len(j.Entries))
	}
	sums := map[string]int64{}
	for _, e := range j.Entries {
		if e.Party == "" || len(e.Party) > 100 || len(e.Currency) != 3 || strings.ToUpper(e.Currency) != e.Currency {
			return fmt.Errorf("ledger: malformed entry %+v", e)
		}
		if e.Amount == 0 || e.Amount == math.MinInt64 {
			return fmt.Errorf("ledger: entry amount %d on %s", e.Amount, e.Party)
		}
		s := sums[e.Currency]
		if (e.Amount > 0 && s > math.MaxInt64-e.Amount) || (e.Amount < 0 && s < math.MinInt64-e.Amount) {
			return fmt.Errorf("%w: overflow in %s", ErrUnbalanced, e.Currency)
		}
		sums[e.Currency] = s + e.Amount
	}
	for cur, s := range sums {
		if s != 0 {
			return fmt.Errorf("%w: %s sums to %d", ErrUnbalanced, cur, s)
		}
	}
	return nil
}

// accountRow is a ledger account (table ledger_accounts).
type accountRow struct {
	bun.BaseModel `bun:"table:ledger_accounts,alias:la"`
	wire.Tenant
	Party    string    `bun:"party,pk"`
	Currency string    `bun:"currency,pk"`
	Balance  int64     `bun:"balance"`
	Created  time.Time `bun:"created"`
}

// journalRow is a journal (table ledger_journals).
type journalRow struct {
	bun.BaseModel `bun:"table:ledger_journals,alias:lj"`
	wire.Tenant
	ID          uuid.UUID  `bun:"id,pk,type:uuid"`
	Kind        string     `bun:"kind"`
	RefType     string     `bun:"ref_type"`
	RefID       uuid.UUID  `bun:"ref_id,type:uuid"`
	ChargeID    *uuid.UUID `bun:"charge_id,type:uuid"`
	Description *string    `bun:"description"`
	Created     time.Time  `bun:"created"`
}

// entryRow is an entry (table ledger_entries).
type entryRow struct {
	bun.BaseModel `bun:"table:ledger_entries,alias:le"`
	wire.Tenant
	JournalID uuid.UUID `bun:"journal_id,pk,type:uuid"`
	Seq       int       `bun:"seq,pk"`
	Party     string    `bun:"party"`
	Currency  string    `bun:"currency"`
	Amount    int64     `bun:"amount"`
}

// lockOrder sorts rows by account so that every transaction takes account
// row locks in one order, which rules out deadlocks between postings.
func lockOrder[T any](rows []T, key func(T) (string, string)) {
	sort.SliceStable(rows, func(a, b int) bool {
		pa, ca := key(rows[a])
		pb, cb := key(rows[b])
		if pa != pb {
			return pa < pb
		}
		return ca < cb
	})
}
