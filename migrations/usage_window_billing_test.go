package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/migrations"
)

// A usage invoice of a version before 00052 marked each event it billed;
// 00052 moves that mark to the invoice's window: the events' own
// invoice_id is cleared, metering_events_billed names the invoice, and an
// auto-charge's mark (an invoice without a window) stays on its events.
func TestUsageBilledByWindowsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	loader, next := migrateBefore(t, "00052")
	// Fixture 00023's customer has two events of api.calls in January
	// 2026 (20th, 30th) and fixture 00019 an invoice of another customer:
	// an invoice of the usage customer billed the window holding the
	// first, as that version did (its events marked); an auto-charge
	// invoice billed the second (marked, no window).
	for _, stmt := range []string{
		`INSERT INTO invoices (merchant_id, id, livemode, status, collection_method, customer_id, currency, billing_reason,
		   metadata, created, updated) VALUES
		 ('019bc186-de00-75ef-8e0d-063ec2b297b2', '019bc4e0-0000-7a01-8b00-8c0a1e000001', false, 'draft', 'charge_automatically',
		  '019bc4b0-0001-7a02-8b00-5c0a1e000002', 'usd', 'usage', '{}', '2026-01-31 10:00:00+00', '2026-01-31 10:00:00+00'),
		 ('019bc186-de00-75ef-8e0d-063ec2b297b2', '019bc4e0-0000-7a01-8b00-8c0a1e000002', false, 'draft', 'charge_automatically',
		  '019bc4b0-0001-7a02-8b00-5c0a1e000002', 'usd', 'usage', '{}', '2026-01-31 10:00:00+00', '2026-01-31 10:00:00+00')`,
		`INSERT INTO usage_invoice_windows (merchant_id, livemode, invoice_id, event_name, customer_id, period_start, period_end)
		 VALUES ('019bc186-de00-75ef-8e0d-063ec2b297b2', false, '019bc4e0-0000-7a01-8b00-8c0a1e000001', 'api.calls',
		         '019bc4b0-0001-7a02-8b00-5c0a1e000002', '2026-01-01', '2026-01-25')`,
		`UPDATE metering_events SET invoice_id = '019bc4e0-0000-7a01-8b00-8c0a1e000001' WHERE id = '019bc4c0-0001-7a02-8b00-6c0a1e000002'`,
		`UPDATE metering_events SET invoice_id = '019bc4e0-0000-7a01-8b00-8c0a1e000002' WHERE id = '019bc4c0-0002-7a03-8b00-6c0a1e000003'`,
	} {
		_, err := loader.Exec(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	require.NoError(t, next())

	rows, err := loader.Query(ctx, `SELECT id::text, coalesce(invoice_id::text, ''), coalesce(billed_by::text, '')
		FROM metering_events_billed ORDER BY id`)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([3]string, error) {
		var v [3]string
		return v, r.Scan(&v[0], &v[1], &v[2])
	})
	require.NoError(t, err)
	require.Equal(t, [][3]string{
		{"019bc4c0-0001-7a02-8b00-6c0a1e000002", "", "019bc4e0-0000-7a01-8b00-8c0a1e000001"},
		{"019bc4c0-0002-7a03-8b00-6c0a1e000003", "019bc4e0-0000-7a01-8b00-8c0a1e000002", "019bc4e0-0000-7a01-8b00-8c0a1e000002"},
	}, got, "the window's event is billed by its window; the auto-charge's keeps its mark")
}

// migrateBefore migrates a new database to the version before the
// migration named version, loading each version's fixture, and answers a
// superuser connection to it and the step applying that migration.
func migrateBefore(t *testing.T, version string) (*pgx.Conn, func() error) {
	t.Helper()
	ctx := context.Background()
	url := testdb.NewEmptyDatabaseURL(t)
	db, err := store.Open(ctx, url, 2)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	require.NoError(t, jobs.Migrate(ctx, db.Pool)) // fixtures hold jobs
	loader, err := pgx.Connect(ctx, testdb.SuperuserURL(t, url))
	require.NoError(t, err)
	t.Cleanup(func() { _ = loader.Close(ctx) })

	all, err := migrations.Migrations()
	require.NoError(t, err)
	sorted := all.Sorted()
	before := 0
	for k, m := range sorted {
		if m.Name >= version {
			break
		}
		require.NoError(t, migrations.ApplyFirst(ctx, db.Bun, k+1), m.Name)
		loadFixture(t, loader, m.Name)
		before = k + 1
	}
	require.Equal(t, version, sorted[before].Name[:5])
	return loader, func() error { return migrations.ApplyFirst(ctx, db.Bun, before+1) }
}
