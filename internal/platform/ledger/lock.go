package ledger

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// LockBalance takes the row lock of party's account in currency (creating
// the account on first use) and answers its balance, in t's transaction:
// until the transaction ends no other posting to the account can commit,
// so a rule about the balance checked now still holds when this
// transaction posts. Take it before the transaction's other ledger locks
// (a posting to the account takes it too, later, in account order).
func LockBalance(ctx context.Context, t *store.Tenant, now time.Time, party, currency string) (int64, error) {
	a := &accountRow{Party: party, Currency: currency, Created: now}
	if _, err := t.Insert(a).On("CONFLICT (merchant_id, livemode, party, currency) DO NOTHING").Exec(ctx); err != nil {
		return 0, err
	}
	if err := t.Select(a).Column("balance").Where("la.party = ?", party).Where("la.currency = ?", currency).
		For("UPDATE").Scan(ctx); err != nil {
		return 0, err
	}
	return a.Balance, nil
}
