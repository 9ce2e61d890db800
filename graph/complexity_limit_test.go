package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An operation's complexity remembered from an earlier request refuses
// and admits as the walk does, and an operation with variables is
// measured with each request's values.
func TestComplexityLimitRemembersOperationsWithoutVariables(t *testing.T) {
	t.Parallel()
	f := setup(t)
	over := `{ accounts(first: 100) { edges { cursor node { ` + accountFields + ` } } } }`
	for range 2 {
		g, e := gqlError(t, f.sk, over, nil)
		require.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", code(e))
		require.Nil(t, g.Data)
	}
	under := `{ accounts(first: 1) { edges { cursor node { ` + accountFields + ` } } } }`
	for range 2 {
		gql(t, f.sk, under, nil)
	}

	withFirst := `query($first: Int) { accounts(first: $first) { edges { cursor node { ` + accountFields + ` } } } }`
	gql(t, f.sk, withFirst, map[string]any{"first": 1})
	g, e := gqlError(t, f.sk, withFirst, map[string]any{"first": 100})
	require.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", code(e))
	require.Nil(t, g.Data)
	gql(t, f.sk, withFirst, map[string]any{"first": 1})
}
