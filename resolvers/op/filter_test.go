package op_test

import (
	"database/sql"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type everyKind struct {
	Email  *string `query:"email" filter:"search_email,lower"`
	Name   *string `query:"name" filter:"search_name,contains"`
	Before *int64  `query:"created_before" filter:"created,before"`
	After  *int64  `query:"created_after" filter:"created,after"`
	Active *bool   `query:"active" filter:"active"`
}

// Each kind of condition renders as the SQL it promises, with user input
// as values (LIKE wildcards escaped), never as SQL.
func TestFilterKindsRenderTheirConditions(t *testing.T) {
	t.Parallel()
	db := bun.NewDB(&sql.DB{}, pgdialect.New())
	email, name, active := "  Ada@Example.COM ", "Love%  Lace", true
	before, after := int64(1_800_000_000), int64(1_700_000_000)
	q, err := op.ApplyFilter(db.NewSelect().Model((*models.Customer)(nil)),
		everyKind{Email: &email, Name: &name, Before: &before, After: &after, Active: &active})
	require.NoError(t, err)
	sql := q.String()
	require.Contains(t, sql, `"cu"."search_email" = 'ada@example.com'`)
	require.Contains(t, sql, `"cu"."search_name" LIKE '%love\% lace%'`)
	require.Contains(t, sql, `"cu"."created" < '2027-01-15 08:00:00+00:00'`)
	require.Contains(t, sql, `"cu"."created" > '2023-11-14 22:13:20+00:00'`)
	require.Contains(t, sql, `"cu"."active" = TRUE`)

	q, err = op.ApplyFilter(db.NewSelect().Model((*models.Customer)(nil)), (*everyKind)(nil))
	require.NoError(t, err)
	require.NotContains(t, q.String(), "WHERE", "a nil filter adds nothing")
}

func TestFilterParamsNameTheQueryParameters(t *testing.T) {
	t.Parallel()
	params := op.FilterParams(reflectType[everyKind]())
	require.Equal(t, map[string]int{"email": 0, "name": 1, "created_before": 2, "created_after": 3, "active": 4}, params)
}

func reflectType[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }
