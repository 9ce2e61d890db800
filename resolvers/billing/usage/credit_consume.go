package usage

import (
	"context"
	"math/big"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/usage"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// creditUse is what one invoice took from one pool (billing_credit_uses).
type creditUse struct {
	bun.BaseModel `bun:"table:billing_credit_uses,alias:bcu"`
	models.Tenant

	CreditID  uuid.UUID          `bun:"credit_id,pk,type:uuid"`
	InvoiceID uuid.UUID          `bun:"invoice_id,pk,type:uuid"`
	Amount    models.UsageNumber `bun:"amount,type:numeric"`
	Created   time.Time          `bun:"created"`
}

// creditPools are the pools one invoice may apply, locked (FOR UPDATE) in
// the order they are consumed: earliest expiry, then created, then id.
// The payer's usage lock already orders its invoices; the row locks keep
// the pools exact whoever else writes them, and the database refuses a
// pool below zero or above its allocation.
type creditPools struct {
	rows    []*models.BillingCredit
	pools   []usage.Pool
	taken   []*big.Rat
	limited map[uuid.UUID]bool
}

// lockCredits locks the payer's pools of products that are still active
// at now (not expired, not exhausted), in consumption order; one
// statement, none when there is no product.
func lockCredits(ctx context.Context, w *op.W, payer *usagePayer, products []uuid.UUID, now time.Time) (*creditPools, error) {
	cp := &creditPools{limited: map[uuid.UUID]bool{}}
	if len(products) == 0 {
		return cp, nil
	}
	if err := payer.Where(w.Tx.Select(&cp.rows)).Where("bc.product_id IN (?)", bun.In(products)).
		Where("bc.expires > ?", now).Where("bc.exhausted_at IS NULL").
		OrderExpr("bc.expires, bc.created, bc.id").For("UPDATE").Scan(ctx); err != nil {
		return nil, err
	}
	for _, c := range cp.rows {
		cp.pools = append(cp.pools, usage.Pool{Available: c.Available()})
		cp.taken = append(cp.taken, new(big.Rat))
		if c.Limited {
			cp.limited[c.Product] = true
		}
	}
	return cp, nil
}

// apply takes up to need units from the product's pools, in order, and
// answers what it took and whether the payer held an active limited pool
// for the product when the invoice began (then no usage beyond the pools
// is charged).
func (cp *creditPools) apply(product uuid.UUID, need *big.Rat) (applied *big.Rat, limited bool) {
	var idx []int
	var pools []usage.Pool
	for i, c := range cp.rows {
		if c.Product == product {
			idx = append(idx, i)
			pools = append(pools, cp.pools[i])
		}
	}
	taken, total := usage.Take(pools, need)
	for j, i := range idx {
		cp.taken[i].Add(cp.taken[i], taken[j])
	}
	return total, cp.limited[product]
}

// save records what the invoice took: each pool's used credits (one
// statement), a billing_credit_uses row per pool (one statement), and
// billing_credit.exhausted for each pool it emptied (once: an exhausted
// pool is never locked for consumption again).
func (cp *creditPools) save(ctx context.Context, w *op.W, invoiceID uuid.UUID) error {
	var changed []*models.BillingCredit
	var uses []*creditUse
	now := w.Now()
	for i, c := range cp.rows {
		if cp.taken[i].Sign() == 0 {
			continue
		}
		c.Used = models.UsageFromRat(new(big.Rat).Add(c.Used.Rat(), cp.taken[i]))
		c.Updated = models.At(now)
		if c.Available().Sign() <= 0 {
			at := models.At(now)
			c.ExhaustedAt = &at
		}
		changed = append(changed, c)
		uses = append(uses, &creditUse{CreditID: c.ID, InvoiceID: invoiceID, Amount: models.UsageFromRat(cp.taken[i]),
			Created: now})
	}
	if len(changed) == 0 {
		return nil
	}
	if _, err := w.Tx.Update(&changed).Column("used_credits", "exhausted_at", "updated").Bulk().Exec(ctx); err != nil {
		return err
	}
	if _, err := store.InsertModel(w.Tx, uses).Exec(ctx); err != nil {
		return err
	}
	for _, c := range changed {
		if c.ExhaustedAt == nil {
			continue
		}
		c.Derive(now)
		if err := w.EmitObject(EventBillingCreditExhausted, c.ID, c); err != nil {
			return err
		}
	}
	return nil
}
