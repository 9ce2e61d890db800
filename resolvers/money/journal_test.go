package money

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
)

func entries(j *ledger.Journal) map[string]int64 {
	j.Compact()
	out := map[string]int64{}
	for _, e := range j.Entries {
		out[e.Party] += e.Amount
	}
	return out
}

func TestRefundJournalTakesTheRefundFromTheMerchant(t *testing.T) {
	t.Parallel()
	card := &models.Charge{ID: uuid.New(), PaymentMethodDetails: &models.PaymentMethod{Type: models.PaymentMethodCard}}
	r := &models.Refund{ID: uuid.New(), Amount: 400, Currency: "USD", Created: models.At(time.Now())}
	j := refundJournal(card, r)
	require.NoError(t, j.Check())
	require.Equal(t, map[string]int64{PartyMerchant: 400, PartyCardClearing: -400}, entries(j))
	require.Equal(t, &card.ID, j.ChargeID)
	require.Equal(t, RefRefund, j.RefType)

	ach := &models.Charge{ID: uuid.New(), PaymentMethodDetails: &models.PaymentMethod{Type: models.PaymentMethodACH}}
	require.Equal(t, map[string]int64{PartyMerchant: 400, PartyACHClearing: -400}, entries(refundJournal(ach, r)))
}

// The dispute fee, 0 by default, travels with the disputed amount: both
// leave the merchant when the dispute opens and come back when it is won.
func TestDisputeJournalsCarryTheFee(t *testing.T) {
	t.Parallel()
	ch := &models.Charge{ID: uuid.New(), PaymentMethodDetails: &models.PaymentMethod{Type: models.PaymentMethodCard}}
	now := models.At(time.Now())
	d := &models.Dispute{ID: uuid.New(), AmountCents: 700, AmountCurrency: "USD", Fee: 1500, Created: now, Updated: now}
	open, won := disputeJournal(ch, d, false), disputeJournal(ch, d, true)
	require.NoError(t, open.Check())
	require.NoError(t, won.Check())
	require.Equal(t, "charge.dispute", open.Kind)
	require.Equal(t, "charge.dispute_won", won.Kind)
	require.Equal(t, map[string]int64{PartyMerchant: 2200, PartyCardClearing: -2200}, entries(open))
	require.Equal(t, map[string]int64{PartyMerchant: -2200, PartyCardClearing: 2200}, entries(won))
	require.Equal(t, &ch.ID, won.ChargeID)
	require.Zero(t, disputeFee("USD"), "the self-hosted default")
}
