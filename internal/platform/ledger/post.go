package ledger

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Post writes a balanced journal in t's transaction: its accounts (created
// on first use), the journal and its entries, three statements. The
// entries' trigger adds each amount to its account's balance under the
// row's lock, taken in account order; post at most one journal per
// transaction that touches shared accounts, or post them in one call
// (PostAll), so that lock order holds. Zero entries are dropped before
// the check.
func Post(ctx context.Context, t *store.Tenant, now time.Time, j *Journal) error {
	return PostAll(ctx, t, now, j)
}

// PostAll writes several balanced journals of one change (a capture and
// the dispute it opens) in three statements: every entry of every
// journal is inserted in account order, so the account row locks are
// taken in the one order whatever the journals touch.
func PostAll(ctx context.Context, t *store.Tenant, now time.Time, js ...*Journal) error {
	seen := map[[2]string]bool{}
	var accounts []*accountRow
	journals := make([]*journalRow, 0, len(js))
	var rows []*entryRow
	for _, j := range js {
		j.Compact()
		if err := j.Check(); err != nil {
			return err
		}
		for i, e := range j.Entries {
			k := [2]string{e.Party, e.Currency}
			if !seen[k] {
				seen[k] = true
				accounts = append(accounts, &accountRow{Party: e.Party, Currency: e.Currency, Created: now})
			}
			rows = append(rows, &entryRow{JournalID: j.ID, Seq: i, Party: e.Party, Currency: e.Currency, Amount: e.Amount})
		}
		jr := &journalRow{ID: j.ID, Kind: j.Kind, RefType: j.RefType, RefID: j.RefID, ChargeID: j.ChargeID, Created: now}
		if j.Description != "" {
			jr.Description = &j.Description
		}
		journals = append(journals, jr)
	}
	if len(js) == 0 {
		return nil
	}
	lockOrder(accounts, func(a *accountRow) (string, string) { return a.Party, a.Currency })
	if _, err := store.InsertModel(t, accounts).
		On("CONFLICT (merchant_id, livemode, party, currency) DO NOTHING").Exec(ctx); err != nil {
		return err
	}
	if _, err := store.InsertModel(t, journals).Exec(ctx); err != nil {
		return err
	}
	lockOrder(rows, func(r *entryRow) (string, string) { return r.Party, r.Currency })
	_, err := store.InsertModel(t, rows).Exec(ctx)
	return err
}

// Recorded is a journal as it was written.
type Recorded struct {
	ID      uuid.UUID
	Kind    string
	RefType string
	RefID   uuid.UUID
	Created time.Time
	Entries []Entry
}

// JournalsOf reads the journals recording the objects refIDs of refType,
// oldest first, with their entries in journal order: two statements
// whatever the number of objects.
func JournalsOf(ctx context.Context, t *store.Tenant, refType string, refIDs []uuid.UUID) (map[uuid.UUID][]Recorded, error) {
	return journalsWhere(ctx, t, refIDs, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("lj.ref_type = ?", refType).Where("lj.ref_id IN (?)", bun.In(refIDs))
	}, func(j *journalRow) uuid.UUID { return j.RefID })
}

// JournalsOfCharges reads the journals that move the money of the charges
// chargeIDs (whatever object each records: a capture, a refund, a
// dispute), keyed by charge, oldest first: two statements.
func JournalsOfCharges(ctx context.Context, t *store.Tenant, chargeIDs []uuid.UUID) (map[uuid.UUID][]Recorded, error) {
	return journalsWhere(ctx, t, chargeIDs, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("lj.charge_id IN (?)", bun.In(chargeIDs))
	}, func(j *journalRow) uuid.UUID { return *j.ChargeID })
}

// journalsWhere reads the journals where selects, with their entries,
// grouped by key.
func journalsWhere(ctx context.Context, t *store.Tenant, want []uuid.UUID, where func(*bun.SelectQuery) *bun.SelectQuery,
	key func(*journalRow) uuid.UUID) (map[uuid.UUID][]Recorded, error) {
	out := map[uuid.UUID][]Recorded{}
	if len(want) == 0 {
		return out, nil
	}
	var js []journalRow
	if err := where(t.Select(&js)).OrderExpr("lj.created, lj.id").Scan(ctx); err != nil {
		return nil, err
	}
	if len(js) == 0 {
		return out, nil
	}
	jids := make([]uuid.UUID, len(js))
	for i, j := range js {
		jids[i] = j.ID
	}
	var es []entryRow
	if err := t.Select(&es).Where("le.journal_id IN (?)", bun.In(jids)).
		OrderExpr("le.journal_id, le.seq").Scan(ctx); err != nil {
		return nil, err
	}
	byJournal := map[uuid.UUID][]Entry{}
	for _, e := range es {
		byJournal[e.JournalID] = append(byJournal[e.JournalID], Entry{Party: e.Party, Currency: e.Currency, Amount: e.Amount})
	}
	for i := range js {
		j := &js[i]
		k := key(j)
		out[k] = append(out[k], Recorded{ID: j.ID, Kind: j.Kind, RefType: j.RefType, RefID: j.RefID,
			Created: j.Created, Entries: byJournal[j.ID]})
	}
	return out, nil
}

// Balance is party's balance in currency (0 for an account never used).
func Balance(ctx context.Context, t *store.Tenant, party, currency string) (int64, error) {
	var a accountRow
	err := t.Select(&a).Where("la.party = ?", party).Where("la.currency = ?", currency).Scan(ctx)
	if store.IsNoRows(err) {
		return 0, nil
	}
	return a.Balance, err
}

// Drift is an account whose stored balance differs from the sum of its
// entries.
type Drift struct {
	Party, Currency string
	Balance, Sum    int64
}

// Audit compares every account of t's tenant with the sum of its entries
// and checks that the whole tenant's entries sum to zero per currency: the
// ledger's invariants, read back. An empty result means the books hold.
func Audit(ctx context.Context, t *store.Tenant) ([]Drift, error) {
	var accounts []accountRow
	if err := t.Select(&accounts).Scan(ctx); err != nil {
		return nil, err
	}
	var sums []struct {
		Party    string `bun:"party"`
		Currency string `bun:"currency"`
		Sum      int64  `bun:"sum"`
	}
	if err := t.Select((*entryRow)(nil)).ColumnExpr("le.party, le.currency, sum(le.amount) AS sum").
		GroupExpr("le.party, le.currency").Scan(ctx, &sums); err != nil {
		return nil, err
	}
	bySum := map[[2]string]int64{}
	total := map[string]int64{}
	for _, s := range sums {
		bySum[[2]string{s.Party, s.Currency}] = s.Sum
		total[s.Currency] += s.Sum
	}
	var drift []Drift
	for _, a := range accounts {
		if s := bySum[[2]string{a.Party, a.Currency}]; s != a.Balance {
			drift = append(drift, Drift{Party: a.Party, Currency: a.Currency, Balance: a.Balance, Sum: s})
		}
	}
	for cur, s := range total {
		if s != 0 {
			drift = append(drift, Drift{Party: "*", Currency: cur, Sum: s})
		}
	}
	return drift, nil
}
