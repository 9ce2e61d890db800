package rest_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The due look-ups find their rows through their partial indexes: a
// look-up whose condition does not imply its index's predicate reads every
// subscription of the merchant on every step of an advance (quadratic in
// the subscriptions of a clock). Sequential scans are turned off so the
// plan shows whether the index can serve the query at all, whatever the
// table's size.
func TestDueLookUpsUseTheirIndexes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for index, where := range map[string]string{
		"subscriptions_renewal_due_idx": `sub.current_period_end <= now() AND sub.test_clock_id IS NULL
			AND sub.status IN ('active', 'past_due', 'paused') ORDER BY sub.current_period_end ASC, sub.id ASC`,
		"subscriptions_retry_due_idx": `sub.next_payment_attempt <= now() AND sub.test_clock_id IS NULL
			AND sub.status = 'past_due' ORDER BY sub.next_payment_attempt ASC, sub.id ASC`,
		"subscriptions_resume_due_idx": `sub.resume_at <= now() AND sub.test_clock_id IS NULL
			AND sub.status = 'paused' ORDER BY sub.resume_at ASC, sub.id ASC`,
	} {
		tx, err := f.env.DB.Bun.BeginTx(context.Background(), &sql.TxOptions{})
		require.NoError(t, err)
		_, err = tx.ExecContext(context.Background(), "SET LOCAL enable_seqscan = off")
		require.NoError(t, err)
		var plan []string
		require.NoError(t, tx.NewRaw(`EXPLAIN SELECT sub.id FROM subscriptions AS sub
			WHERE sub.merchant_id = ? AND sub.livemode = false AND `+where+` LIMIT 1`, f.env.Merchant.ID).Scan(context.Background(), &plan))
		require.NoError(t, tx.Rollback())
		// Another due index whose predicate the condition implies serves
		// as well on a small table; the merchant's whole key range does not.
		require.Contains(t, strings.Join(plan, "\n"), "_due_idx", "%s: plan:\n%s", index, strings.Join(plan, "\n"))
	}
}
