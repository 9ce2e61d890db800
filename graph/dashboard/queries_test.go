package dashboard_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"

	"github.com/frame-oss/payments-server/graph/dashboard"
	"github.com/frame-oss/payments-server/graph/generated"
)

// The documents read from the dashboard's script are the ones it sends,
// fragments included, and each is valid against the served schema: a
// panel whose query the schema refuses fails here, not only in a browser.
func TestDashboardOperationsAreTheScriptsAndValid(t *testing.T) {
	t.Parallel()
	ops, err := dashboard.Operations()
	require.NoError(t, err)
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	names := map[string]string{}
	for _, op := range ops {
		_, errs := gqlparser.LoadQuery(schema, op.Document)
		require.Empty(t, errs, "%s:\n%s", op.Name, op.Document)
		names[op.Name] = op.Type
	}
	require.Equal(t, map[string]string{
		"DashboardAccounts": "query", "DashboardSubscriptions": "query", "DashboardTransfers": "query",
		"DashboardBalance": "query", "DashboardVolume": "query", "DashboardDisputes": "query",
		"DashboardFailedPayments": "query", "DashboardRefunds": "query", "DashboardPayouts": "query",
		"DashboardRecentEvents": "query", "DashboardEvents": "subscription",
	}, names)
	for _, op := range ops {
		if op.Name == "DashboardAccounts" {
			require.Contains(t, op.Document, "fragment AccountName on Account", "the fragment it spreads is carried along")
		}
	}
}
