package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// What is looked up before the merchant is known: the exceptions
// docs/scaling.md (step 3) names and how each is distributed.
var (
	// referenceTables are replicated to every node whole.
	referenceTables = map[string]bool{"api_keys": true}
	// globalKeys are unique indexes found through a reference table of
	// their own (key → merchant), then on the merchant's node.
	globalKeys = map[string]bool{
		"session_secrets_hash_key":            true, // a session secret by its hash
		"payment_link_sessions_url_token_key": true, // a payment link's public URL token
	}
)

// What docs/scaling.md step 3 (distribution by merchant, Citus) needs of
// the schema, checked on the migrated database so no migration breaks it
// unnoticed: every tenant table (one with a merchant_id column) has a
// primary key, unique constraints and unique indexes that begin with
// merchant_id, and every foreign key between tenant tables carries
// merchant_id first on both sides.
func TestEveryTenantTableIsKeyedByMerchantFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testdb.NewDatabaseURL(t))
	require.NoError(t, err)
	defer func() { _ = conn.Close(ctx) }()

	rows, err := conn.Query(ctx, `
		SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'merchant_id' AND NOT a.attisdropped
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`)
	require.NoError(t, err)
	tenant, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.Greater(t, len(tenant), 30, "the tenant tables were found")
	isTenant := map[string]bool{}
	for _, name := range tenant {
		isTenant[name] = true
	}

	// Primary keys, unique constraints and unique indexes: the first column.
	rows, err = conn.Query(ctx, `
		SELECT t.relname, i.relname, x.indisprimary, a.attname
		FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
		WHERE n.nspname = 'public' AND x.indisunique ORDER BY 1, 2`)
	require.NoError(t, err)
	type keyRow struct {
		Table, Index string
		Primary      bool
		First        *string
	}
	keys, err := pgx.CollectRows(rows, pgx.RowToStructByPos[keyRow])
	require.NoError(t, err)
	hasPrimary := map[string]bool{}
	var problems []string
	for _, k := range keys {
		if !isTenant[k.Table] {
			continue
		}
		if k.Primary {
			hasPrimary[k.Table] = true
		}
		if referenceTables[k.Table] {
			continue
		}
		if globalKeys[k.Index] {
			continue
		}
		if k.First == nil || *k.First != "merchant_id" {
			problems = append(problems, k.Table+": unique index "+k.Index+" must begin with merchant_id")
		}
	}
	for _, name := range tenant {
		if !hasPrimary[name] {
			problems = append(problems, name+" has no primary key")
		}
	}

	// Foreign keys between tenant tables: merchant_id first, on both sides.
	rows, err = conn.Query(ctx, `
		SELECT f.conname, t.relname, r.relname, a.attname, ra.attname
		FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = f.conkey[1]
		JOIN pg_attribute ra ON ra.attrelid = r.oid AND ra.attnum = f.confkey[1]
		WHERE n.nspname = 'public' AND f.contype = 'f' ORDER BY 1`)
	require.NoError(t, err)
	type fkRow struct{ Name, Table, Ref, First, RefFirst string }
	fks, err := pgx.CollectRows(rows, pgx.RowToStructByPos[fkRow])
	require.NoError(t, err)
	checked := 0
	for _, fk := range fks {
		if !isTenant[fk.Table] || !isTenant[fk.Ref] {
			continue // to the merchants table (a reference table) or from a platform table
		}
		checked++
		if fk.First != "merchant_id" || fk.RefFirst != "merchant_id" {
			problems = append(problems, fk.Table+": foreign key "+fk.Name+" → "+fk.Ref+" must join merchant_id first")
		}
	}
	require.Greater(t, checked, 20, "the foreign keys between tenant tables were found")
	require.Empty(t, problems)
}
