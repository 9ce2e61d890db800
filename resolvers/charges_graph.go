package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
)

// Charges are nodes loaded in batches (each with its payment method);
// Charge.ledgerJournals loads every charge's journals in two statements.
var (
	chargeLoader         = nodeLoader("charge", func(r *Resolver) batch[*models.Charge] { return r.Svc.Money.Charges.ByIDs })
	chargeJournalsLoader = loader("chargeJournals", func(r *Resolver) batch[[]ledger.Recorded] { return r.Svc.Money.Charges.Journals })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountLoader, "account", func(c *models.Charge) string { return idKey(c.AccountID) })
	_ = edge(customerLoader, "customer", func(c *models.Charge) string { return idKey(c.CustomerID) })
	_ = edge(transferLoader, "transfer", func(c *models.Charge) string { return idKey(c.TransferID) })
	_ = edge(chargeJournalsLoader, "ledgerJournals", func(c *models.Charge) string { return c.ID.String() })
	_ = edge(chargeLoader, "charge", func(t *models.Transfer) string { return idKey(t.LatestCharge) })
)

func chargeJournals(ctx context.Context, c *models.Charge) ([]*models.LedgerJournal, error) {
	rs, err := load(ctx, chargeJournalsLoader, c.ID.String())
	if err != nil {
		return nil, err
	}
	return models.LedgerJournalsOf(rs), nil
}
