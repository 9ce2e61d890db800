package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/migrations"
)

// Migration 00034 gives the profile phones stored before it their E.164
// form, individual and business alike, and leaves alone what it cannot
// derive exactly: those keep being parsed when read (models.Phone.E164).
func TestProfilePhonesStoredBeforeGetTheirE164Form(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := testdb.NewEmptyDatabaseURL(t)
	db, err := store.Open(ctx, url, 2)
	require.NoError(t, err)
	t.Cleanup(db.Close)

	all, err := migrations.Migrations()
	require.NoError(t, err)
	before := -1
	for i, m := range all.Sorted() {
		if m.Name == "00034" {
			before = i
		}
	}
	require.GreaterOrEqual(t, before, 0, "migration 00034 is in the set")
	require.NoError(t, migrations.ApplyFirst(ctx, db.Bun, before))

	loader, err := pgx.Connect(ctx, testdb.SuperuserURL(t, url))
	require.NoError(t, err)
	t.Cleanup(func() { _ = loader.Close(ctx) })
	profiles := map[string]string{
		"019bc1bd-0000-7000-8000-000000000001": `{"individual": {"phone": {"number": "2001001695", "country_code": "1"}}}`,
		"019bc1bd-0000-7000-8000-000000000002": `{"business": {"phone": {"number": "2079460958", "country_code": "44"}}}`,
		"019bc1bd-0000-7000-8000-000000000003": `{"individual": {"phone": {"number": "12001001695", "country_code": "1"}}}`,
		"019bc1bd-0000-7000-8000-000000000004": `{"individual": {"phone": {"number": "2001001695", "country_code": "US"}}}`,
		"019bc1bd-0000-7000-8000-000000000005": `{"individual": {"phone": null, "email": "a@example.com"}}`,
		"019bc1bd-0000-7000-8000-000000000006": `{"individual": {"phone": {"number": "2001001695", "country_code": "1", "e164": "+12001001695"}}}`,
	}
	tx, err := loader.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, "SET LOCAL session_replication_role = replica")
	require.NoError(t, err)
	for id, profile := range profiles {
		_, err := tx.Exec(ctx, `INSERT INTO accounts (merchant_id, id, livemode, type, status, restricted_by, metadata, profile, created, updated)
			VALUES ('019bc186-de00-75ef-8e0d-063ec2b297b2', $1, false, 'individual', 'pending', '{}', '{}', $2, now(), now())`, id, profile)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit(ctx))

	require.NoError(t, migrations.ApplyFirst(ctx, db.Bun, before+1))

	want := map[string]string{
		"019bc1bd-0000-7000-8000-000000000001": `{"individual": {"phone": {"e164": "+12001001695", "number": "2001001695", "country_code": "1"}}}`,
		"019bc1bd-0000-7000-8000-000000000002": `{"business": {"phone": {"e164": "+442079460958", "number": "2079460958", "country_code": "44"}}}`,
		"019bc1bd-0000-7000-8000-000000000003": profiles["019bc1bd-0000-7000-8000-000000000003"],
		"019bc1bd-0000-7000-8000-000000000004": profiles["019bc1bd-0000-7000-8000-000000000004"],
		"019bc1bd-0000-7000-8000-000000000005": profiles["019bc1bd-0000-7000-8000-000000000005"],
		"019bc1bd-0000-7000-8000-000000000006": profiles["019bc1bd-0000-7000-8000-000000000006"],
	}
	for id, profile := range want {
		var same bool
		require.NoError(t, loader.QueryRow(ctx, "SELECT profile = $2::jsonb FROM accounts WHERE id = $1", id, profile).Scan(&same))
		if !same {
			var got string
			require.NoError(t, loader.QueryRow(ctx, "SELECT profile::text FROM accounts WHERE id = $1", id).Scan(&got))
			t.Errorf("account %s: profile %s, want %s", id, got, profile)
		}
	}
}
