package funding

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// balanceSQL reads what the merchant balance shows, for one merchant and
// mode, in one statement through indexes only: the instant-payout
// ledger account's balance (the sum of its entries, kept by the ledger),
// the payouts still in flight, and when the balance last moved (the
// newest funding entry or sent payout).
const balanceSQL = `SELECT
  (SELECT balance FROM ledger_accounts WHERE merchant_id = ?0 AND livemode = ?1 AND party = ?2 AND currency = ?3) AS balance,
  (SELECT COALESCE(sum(amount), 0) FROM payouts WHERE merchant_id = ?0 AND livemode = ?1 AND status = 'pending') AS pending,
  GREATEST(
    (SELECT max(created) FROM payout_funding_entries WHERE merchant_id = ?0 AND livemode = ?1),
    (SELECT max(created) FROM payouts WHERE merchant_id = ?0 AND livemode = ?1 AND status = 'succeeded')) AS last`

// MerchantBalance reads the caller's balance (GET /v1/merchant_balance):
// derived from the ledger at read time, never stored apart from it.
// available_for_payout is the instant-payout balance (payouts are taken
// from it when they are sent, in flight or not); nothing is reserved.
func (s *Service) MerchantBalance(ctx context.Context) (*models.MerchantBalance, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	var row struct {
		Balance *models.CentsAsDollars `bun:"balance"`
		Pending models.CentsAsDollars  `bun:"pending"`
		Last    *time.Time             `bun:"last"`
	}
	const currency = "USD"
	if err := s.DB.Bun.NewRaw(balanceSQL, p.Scope.MerchantID, p.Scope.Livemode, PartyInstantPayout, currency).
		Scan(ctx, &row); err != nil {
		return nil, err
	}
	b := &models.MerchantBalance{Status: models.MerchantBalanceAvailable, MerchantID: p.Scope.MerchantID,
		Currency: currency, PendingPayouts: row.Pending, Source: "ledger", Livemode: p.Scope.Livemode}
	if row.Balance != nil {
		b.InstantPayoutBalance = -*row.Balance
	}
	b.AvailableForPayout = b.InstantPayoutBalance - b.ReservedAmount
	if row.Last != nil {
		b.LastUpdatedAt = models.ISOTime{Time: row.Last.UTC()}
	}
	return b, nil
}
