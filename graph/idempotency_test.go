package graph_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func idemKey(k string) http.Header { return http.Header{"Idempotency-Key": {k}} }

const twoCreates = `mutation($a: CreateAccountInput!, $b: CreateAccountInput!) {
	first: createAccount(input: $a) { id }
	second: createAccount(input: $b) { id }
}`

func countGraphAccounts(t *testing.T, f *fixture) int {
	t.Helper()
	g := gql(t, f.sk, `{ accounts(first: 100, filter: {includeDisabled: true}) { edges { node { id } } } }`, nil)
	return len(list(obj(g.Data["accounts"])["edges"]))
}

// A GraphQL mutation honours the Idempotency-Key header as REST does: a
// retry replays the committed result and changes nothing.
func TestMutationsHonourTheIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	vars := map[string]any{"input": testenv.Individual().GraphQLInput()}
	first := f.sk.GraphQLWithHeader(createAccountMutation, vars, idemKey("gql-create"))
	require.Empty(t, first.Errors, string(first.Raw))
	again := f.sk.GraphQLWithHeader(createAccountMutation, vars, idemKey("gql-create"))
	require.Empty(t, again.Errors, string(again.Raw))
	require.Equal(t, first.Data, again.Data, "the replay answers the committed account")
	require.Equal(t, 1, countGraphAccounts(t, f))

	// The key with other parameters is refused, and changes nothing.
	other := map[string]any{"input": testenv.Individual().WithExternalID("other").GraphQLInput()}
	g := f.sk.GraphQLWithHeader(createAccountMutation, other, idemKey("gql-create"))
	require.Len(t, g.Errors, 1, string(g.Raw))
	require.Equal(t, "idempotency_error", code(g.Errors[0]))
	require.Equal(t, 400, status(g.Errors[0]))
	require.Equal(t, 1, countGraphAccounts(t, f))
}

// With several mutations in one request, the key applies to each root field
// (by its response name): a retried request replays every one of them.
func TestEachMutationOfARequestIsReplayed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	vars := map[string]any{"a": testenv.Individual().WithExternalID("a").GraphQLInput(),
		"b": testenv.Individual().WithExternalID("b").GraphQLInput()}
	first := f.sk.GraphQLWithHeader(twoCreates, vars, idemKey("batch"))
	require.Empty(t, first.Errors, string(first.Raw))
	require.NotEqual(t, obj(first.Data["first"])["id"], obj(first.Data["second"])["id"])
	again := f.sk.GraphQLWithHeader(twoCreates, vars, idemKey("batch"))
	require.Empty(t, again.Errors, string(again.Raw))
	require.Equal(t, first.Data, again.Data)
	require.Equal(t, 2, countGraphAccounts(t, f))
}

// A key that cannot be stored reliably is refused on the mutation, in the
// same terms as REST, and nothing runs.
func TestInvalidIdempotencyKeyIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	vars := map[string]any{"input": testenv.Individual().GraphQLInput()}
	g := f.sk.GraphQLWithHeader(createAccountMutation, vars, idemKey("bad-é-key"))
	require.Len(t, g.Errors, 1, string(g.Raw))
	require.Equal(t, "idempotency_error", code(g.Errors[0]))
	require.Equal(t, 400, status(g.Errors[0]))
	require.Zero(t, countGraphAccounts(t, f))
}
