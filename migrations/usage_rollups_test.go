package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// 00053 backfills usage_rollups from the events of earlier versions that
// no auto-charge claimed: fixture 00023's customer has two events of
// api.calls (20 January 08:00, value 2.5; 30 January 23:59:59, value 4
// with a 10 % markup); an auto-charge claimed the second, so only the
// first's hour is rolled up. Events written afterwards keep the rollups
// by the migration's triggers.
func TestUsageRollupsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	loader, next := migrateBefore(t, "00053")
	for _, stmt := range []string{
		`INSERT INTO invoices (merchant_id, id, livemode, status, collection_method, customer_id, currency, billing_reason,
		   metadata, created, updated) VALUES
		 ('019bc186-de00-75ef-8e0d-063ec2b297b2', '019bc4e0-0000-7a01-8b00-8c0a1e000002', false, 'draft', 'charge_automatically',
		  '019bc4b0-0001-7a02-8b00-5c0a1e000002', 'usd', 'usage', '{}', '2026-01-31 10:00:00+00', '2026-01-31 10:00:00+00')`,
		`UPDATE metering_events SET invoice_id = '019bc4e0-0000-7a01-8b00-8c0a1e000002' WHERE id = '019bc4c0-0002-7a03-8b00-6c0a1e000003'`,
	} {
		_, err := loader.Exec(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	require.NoError(t, next())
	rollups := func() [][2]string {
		rows, err := loader.Query(ctx, `SELECT bucket AT TIME ZONE 'UTC' || '', events || ' ' || trim_scale(sum_value) || ' ' ||
			trim_scale(sum_w100) || ' ' || trim_scale(sum_f100) FROM usage_rollups ORDER BY bucket`)
		require.NoError(t, err)
		got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
			var v [2]string
			return v, r.Scan(&v[0], &v[1])
		})
		require.NoError(t, err)
		return got
	}
	require.Equal(t, [][2]string{{"2026-01-20 08:00:00", "1 2.5 250 100"}}, rollups(), "the unclaimed event's hour")

	// Unclaiming the event adds it back to its hour; moving the first
	// event by a minute keeps its hour; deleting it empties the hour.
	for _, stmt := range []string{
		`UPDATE metering_events SET invoice_id = NULL WHERE id = '019bc4c0-0002-7a03-8b00-6c0a1e000003'`,
		`UPDATE metering_events SET "timestamp" = "timestamp" + interval '1 minute' WHERE id = '019bc4c0-0001-7a02-8b00-6c0a1e000002'`,
	} {
		_, err := loader.Exec(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	require.Equal(t, [][2]string{{"2026-01-20 08:00:00", "1 2.5 250 100"}, {"2026-01-30 23:00:00", "1 4 440 110"}}, rollups())
	_, err := loader.Exec(ctx, `DELETE FROM metering_events WHERE id = '019bc4c0-0001-7a02-8b00-6c0a1e000002'`)
	require.NoError(t, err)
	require.Equal(t, [][2]string{{"2026-01-20 08:00:00", "0 0 0 0"}, {"2026-01-30 23:00:00", "1 4 440 110"}}, rollups())
}
