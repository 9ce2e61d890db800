package testenv

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Explain is PostgreSQL's plan of the recorded statement s, explained in
// tx with its recorded arguments, as the plan tests read it: one string of
// the plan's lines.
func Explain(t testing.TB, ctx context.Context, tx pgx.Tx, s store.RecordedStatement) string {
	t.Helper()
	rows, err := tx.Query(ctx, "EXPLAIN "+s.SQL, s.Args...)
	require.NoError(t, err, s.SQL)
	var lines []string
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		lines = append(lines, line)
	}
	require.NoError(t, rows.Err())
	return strings.Join(lines, "\n")
}
