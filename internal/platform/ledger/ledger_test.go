package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

type fixture struct {
	ctx  context.Context
	db   *store.DB
	now  time.Time
	a, b store.Scope
}

func setup(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 8)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	ma, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "A"})
	require.NoError(t, err)
	mb, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "B"})
	require.NoError(t, err)
	return &fixture{ctx: ctx, db: db, now: clk.Now(), a: store.Scope{MerchantID: ma.ID}, b: store.Scope{MerchantID: mb.ID}}
}

func (f *fixture) post(s store.Scope, j *ledger.Journal) error {
	return f.db.Tx(f.ctx, s, func(ctx context.Context, tx *store.Tenant) error {
		return ledger.Post(ctx, tx, f.now, j)
	})
}

func journal(entries ...ledger.Entry) *ledger.Journal {
	return &ledger.Journal{ID: ids.New(time.Now()), Kind: "test", RefType: "transfer", RefID: uuid.New(), Entries: entries}
}

func TestCheckRefusesUnbalancedAndMalformedJournals(t *testing.T) {
	cases := map[string][]ledger.Entry{
		"empty":          nil,
		"one entry":      {ledger.Debit("a", "USD", 5)},
		"unbalanced":     {ledger.Debit("a", "USD", 5), ledger.Credit("b", "USD", 4)},
		"cross currency": {ledger.Debit("a", "USD", 5), ledger.Credit("b", "EUR", 5)},
		"zero amount":    {ledger.Debit("a", "USD", 0), ledger.Credit("b", "USD", 0)},
		"no party":       {ledger.Debit("", "USD", 5), ledger.Credit("b", "USD", 5)},
		"bad currency":   {ledger.Debit("a", "usd", 5), ledger.Credit("b", "usd", 5)},
		"overflow":       {ledger.Debit("a", "USD", math.MaxInt64), ledger.Debit("a", "USD", 1), ledger.Credit("b", "USD", 1)},
		"min int":        {{Party: "a", Currency: "USD", Amount: math.MinInt64}, ledger.Debit("b", "USD", 1)},
	}
	for name, entries := range cases {
		t.Run(name, func(t *testing.T) {
			j := journal(entries...)
			require.Error(t, j.Check())
		})
	}
	ok := journal(ledger.Debit("clearing", "USD", 1000), ledger.Credit("merchant", "USD", 941),
		ledger.Credit("fees", "USD", 59), ledger.Debit("x", "EUR", 1), ledger.Credit("y", "EUR", 1))
	require.NoError(t, ok.Check())
}

func TestPostKeepsBalancesEqualToEntriesAndIgnoresZeroLines(t *testing.T) {
	f := setup(t)
	require.NoError(t, f.post(f.a, journal(ledger.Debit("clearing", "USD", 1000),
		ledger.Credit("merchant", "USD", 941), ledger.Credit("platform_fees", "USD", 59), ledger.Credit("frame_fees", "USD", 0))))
	require.NoError(t, f.post(f.a, journal(ledger.Debit("merchant", "USD", 100), ledger.Credit("clearing", "USD", 100))))
	tn := f.db.Tenant(f.a)
	for party, want := range map[string]int64{"clearing": 900, "merchant": -841, "platform_fees": -59, "frame_fees": 0} {
		got, err := ledger.Balance(f.ctx, tn, party, "USD")
		require.NoError(t, err)
		require.Equal(t, want, got, party)
	}
	drift, err := ledger.Audit(f.ctx, tn)
	require.NoError(t, err)
	require.Empty(t, drift)
	// Another merchant sees none of it.
	got, err := ledger.Balance(f.ctx, f.db.Tenant(f.b), "clearing", "USD")
	require.NoError(t, err)
	require.Zero(t, got)
}

// The database refuses an unbalanced journal at commit even when the
// application's check is bypassed, and refuses any change to the books.
func TestDatabaseEnforcesBalanceAndAppendOnly(t *testing.T) {
	f := setup(t)
	m := f.a.MerchantID
	exec := func(q string, args ...any) error {
		_, err := f.db.Bun.ExecContext(f.ctx, q, args...)
		return err
	}
	require.NoError(t, exec(`INSERT INTO ledger_accounts (merchant_id, livemode, party, currency, created) VALUES
		(?, false, 'a', 'USD', now()), (?, false, 'b', 'USD', now())`, m, m))
	jid := uuid.New()
	err := exec(`WITH j AS (INSERT INTO ledger_journals (merchant_id, livemode, id, kind, ref_type, ref_id, created)
		VALUES (?, false, ?, 'raw', 'transfer', ?, now()))
		INSERT INTO ledger_entries (merchant_id, livemode, journal_id, seq, party, currency, amount)
		VALUES (?, false, ?, 0, 'a', 'USD', 10), (?, false, ?, 1, 'b', 'USD', -9)`, m, jid, uuid.New(), m, jid, m, jid)
	require.ErrorContains(t, err, "does not balance")
	err = exec(`INSERT INTO ledger_journals (merchant_id, livemode, id, kind, ref_type, ref_id, created)
		VALUES (?, false, ?, 'raw', 'transfer', ?, now())`, m, uuid.New(), uuid.New())
	require.ErrorContains(t, err, "fewer than two entries")

	require.NoError(t, f.post(f.a, journal(ledger.Debit("a", "USD", 10), ledger.Credit("b", "USD", 10))))
	require.ErrorContains(t, exec(`UPDATE ledger_entries SET amount = amount * 2`), "append-only")
	require.ErrorContains(t, exec(`DELETE FROM ledger_entries`), "append-only")
	require.ErrorContains(t, exec(`DELETE FROM ledger_journals`), "append-only")
	drift, err := ledger.Audit(f.ctx, f.db.Tenant(f.a))
	require.NoError(t, err)
	require.Empty(t, drift)
}

// Many transactions post random balanced journals over a few shared
// accounts at once, some of them rolled back: no deadlock, no lost update,
// every balance equals the sum of its entries, and the committed journals
// alone account for the balances.
func TestConcurrentPostingsKeepTheBooks(t *testing.T) {
	f := setup(t)
	parties := []string{"card_clearing", "merchant", "platform_fees", "frame_fees", "seller:1", "seller:2"}
	const workers, each = 8, 25
	var (
		mu       sync.Mutex
		expected = map[string]int64{}
		wg       sync.WaitGroup
	)
	errRollback := errors.New("rolled back on purpose")
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range each {
				n := 2 + rng.IntN(3)
				entries := make([]ledger.Entry, 0, n+1)
				var sum int64
				for range n {
					amt := rng.Int64N(10_000) - 5_000
					if amt == 0 {
						amt = 1
					}
					entries = append(entries, ledger.Entry{Party: parties[rng.IntN(len(parties))], Currency: "USD", Amount: amt})
					sum += amt
				}
				if sum != 0 {
					entries = append(entries, ledger.Entry{Party: parties[rng.IntN(len(parties))], Currency: "USD", Amount: -sum})
				}
				rollback := rng.IntN(5) == 0
				err := f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
					if err := ledger.Post(ctx, tx, f.now, journal(entries...)); err != nil {
						return err
					}
					if rollback {
						return errRollback
					}
					return nil
				})
				if rollback {
					require.ErrorIs(t, err, errRollback)
					continue
				}
				if errors.Is(err, ledger.ErrUnbalanced) { // all entries cancelled out
					continue
				}
				require.NoError(t, err)
				mu.Lock()
				for _, e := range entries {
					expected[e.Party] += e.Amount
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	tn := f.db.Tenant(f.a)
	drift, err := ledger.Audit(f.ctx, tn)
	require.NoError(t, err)
	require.Empty(t, drift)
	for _, p := range parties {
		got, err := ledger.Balance(f.ctx, tn, p, "USD")
		require.NoError(t, err)
		require.Equal(t, expected[p], got, fmt.Sprintf("balance of %s", p))
	}
}

func TestJournalsOfReadsEntriesInOrder(t *testing.T) {
	f := setup(t)
	ref := uuid.New()
	j1 := &ledger.Journal{ID: ids.New(f.now), Kind: "charge.capture", RefType: "transfer", RefID: ref,
		Entries: []ledger.Entry{ledger.Debit("z", "USD", 5), ledger.Credit("a", "USD", 5)}}
	require.NoError(t, f.post(f.a, j1))
	got, err := ledger.JournalsOf(f.ctx, f.db.Tenant(f.a), "transfer", []uuid.UUID{ref, uuid.New()})
	require.NoError(t, err)
	require.Len(t, got[ref], 1)
	require.Equal(t, "charge.capture", got[ref][0].Kind)
	require.Equal(t, []ledger.Entry{ledger.Debit("z", "USD", 5), ledger.Credit("a", "USD", 5)}, got[ref][0].Entries)
	other, err := ledger.JournalsOf(f.ctx, f.db.Tenant(f.b), "transfer", []uuid.UUID{ref})
	require.NoError(t, err)
	require.Empty(t, other)
}

// PostAll writes several journals of one change together, each balanced,
// each entry counted once in its account's balance.
func TestPostAllWritesEveryJournal(t *testing.T) {
	f := setup(t)
	a := journal(ledger.Debit("clearing", "USD", 1000), ledger.Credit("merchant", "USD", 1000))
	b := journal(ledger.Debit("merchant", "USD", 1000), ledger.Credit("clearing", "USD", 1000))
	require.NoError(t, f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		return ledger.PostAll(ctx, tx, f.now, a, b)
	}))
	tn := f.db.Tenant(f.a)
	for _, p := range []string{"clearing", "merchant"} {
		bal, err := ledger.Balance(f.ctx, tn, p, "USD")
		require.NoError(t, err)
		require.Zero(t, bal, p)
	}
	got, err := ledger.JournalsOf(f.ctx, tn, "transfer", []uuid.UUID{a.RefID, b.RefID})
	require.NoError(t, err)
	require.Len(t, got[a.RefID], 1)
	require.Len(t, got[b.RefID], 1)
	drift, err := ledger.Audit(f.ctx, tn)
	require.NoError(t, err)
	require.Empty(t, drift)
	// One unbalanced journal refuses them all.
	bad := journal(ledger.Debit("clearing", "USD", 5), ledger.Credit("merchant", "USD", 4))
	require.Error(t, f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		return ledger.PostAll(ctx, tx, f.now, journal(ledger.Debit("x", "USD", 1), ledger.Credit("y", "USD", 1)), bad)
	}))
}
