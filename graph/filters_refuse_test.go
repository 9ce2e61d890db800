package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// A connection's page size is 1 to 100: anything else is refused with the
// operation layer's validation error, not adjusted (REST's per_page above
// 100 is clamped, as the spec says; docs/graphql.md).
func TestConnectionPageSizesOutOfRangeAreRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.CreateAccount(testenv.Individual())
	for _, first := range []int{0, -1, 101, 1 << 30} {
		for name, query := range map[string]string{
			"root":      `query($first: Int) { transfers(first: $first) { edges { node { id } } } }`,
			"page edge": `query($first: Int) { accounts(first: 1) { edges { node { transfers(first: $first) { edges { node { id } } } } } } }`,
		} {
			g := f.sk.GraphQL(query, map[string]any{"first": first})
			require.NotEmpty(t, g.Errors, "%s first=%d: %s", name, first, g.Raw)
			ext := g.Errors[0].Extensions
			require.Equal(t, "validation_errors", ext["code"], "%s first=%d: %s", name, first, g.Raw)
			require.Equal(t, map[string]any{"first": []any{op.ProblemFirst}}, ext["errors"], string(g.Raw))
		}
	}
	for _, first := range []int{1, 100} {
		g := f.sk.GraphQL(`query($first: Int) { transfers(first: $first) { edges { node { id } } } }`, map[string]any{"first": first})
		require.Empty(t, g.Errors, string(g.Raw))
	}
}

// Filters take the values the API returns (the enums of the objects'
// fields) and refuse, before any statement, what no object can hold: an
// unknown value of a closed set is not a GraphQL value at all, and in a
// variable it is refused as GraphQL refuses a bad variable.
func TestFiltersTakeTheValuesTheAPIReturns(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, q := range []string{
		`{ transfers(filter: {status: SUCCEEDED}) { edges { node { id status } } } }`,
		`{ transfers(filter: {status: REQUIRES_3D_SECURE}) { edges { node { id status } } } }`,
		`{ chargeIntents(filter: {status: REQUIRES_PAYMENT_METHOD}) { edges { node { id status } } } }`,
		`{ coupons(filter: {status: ACTIVE, discountType: PERCENTAGE, applicableTo: ALL_PRODUCTS}) { edges { node { id status discountType applicableTo } } } }`,
		`{ payouts(filter: {status: FAILED}) { edges { node { id status } } } }`,
		`{ accounts(filter: {status: PENDING, type: INDIVIDUAL}) { edges { node { id status type } } } }`,
		`{ invoices(filter: {status: OPEN}) { edges { node { id status } } } }`,
		`{ invoices(filter: {status: OVERDUE}) { edges { node { id status } } } }`,
		`{ payoutFundingEntries(filter: {source: SCHEDULE}) { edges { node { id source } } } }`,
	} {
		g := f.sk.GraphQL(q, nil)
		require.Empty(t, g.Errors, "%s: %s", q, g.Raw)
	}
	for _, q := range []string{
		`{ transfers(filter: {status: "failed"}) { edges { node { id } } } }`,
		`{ transfers(filter: {status: BOGUS}) { edges { node { id } } } }`,
		`{ payoutFundingEntries(filter: {source: BANK}) { edges { node { id } } } }`,
		`{ payoutFundingEntries(filter: {source: "schedule"}) { edges { node { id } } } }`,
	} {
		g := f.sk.GraphQL(q, nil)
		require.NotEmpty(t, g.Errors, "%s: %s", q, g.Raw)
		require.Equal(t, "GRAPHQL_VALIDATION_FAILED", g.Errors[0].Extensions["code"], string(g.Raw))
	}
	g := f.sk.GraphQL(`query($s: TransferStatus) { transfers(filter: {status: $s}) { edges { node { id } } } }`,
		map[string]any{"s": "bogus"})
	require.NotEmpty(t, g.Errors, string(g.Raw))
	require.Nil(t, g.Data, string(g.Raw))
}

// A filter over a closed set that is not a GraphQL enum (the event
// catalogue, whose types are dotted wire names) refuses a value no object
// can hold as REST does: validation_errors naming the argument, before any
// list statement, on the root list and on a page edge alike. The identity
// provider is an enum: SANDBOX filters, anything else is not a value.
func TestClosedSetFiltersRefuseWhatCannotMatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	for name, query := range map[string]string{
		"root":      `query($t: String) { events(type: $t) { edges { node { id } } } }`,
		"page edge": `query($t: String, $a: ID!) { account(id: $a) { events(type: $t) { edges { node { id } } } } }`,
	} {
		for _, typ := range []string{"account.exploded", "ACCOUNT_CREATED", ""} {
			g := f.sk.GraphQL(query, map[string]any{"t": typ, "a": acct["id"]})
			require.NotEmpty(t, g.Errors, "%s type=%q: %s", name, typ, g.Raw)
			ext := g.Errors[0].Extensions
			require.Equal(t, "validation_errors", ext["code"], "%s type=%q: %s", name, typ, g.Raw)
			require.Equal(t, map[string]any{"type": []any{webhooks.ProblemEventType}}, ext["errors"], string(g.Raw))
		}
		g := f.sk.GraphQL(query, map[string]any{"t": "account.created", "a": acct["id"]})
		require.Empty(t, g.Errors, "%s: %s", name, g.Raw)
	}
	g := f.sk.GraphQL(`{ events(type: "account.created") { edges { node { type } } } }`, nil)
	require.NotEmpty(t, list(obj(g.Data["events"])["edges"]), "a declared type filters: %s", g.Raw)

	g = f.sk.GraphQL(`query($a: ID!) { identityVerifications(accountId: $a, filter: {provider: SANDBOX}) { edges { node { id } } } }`,
		map[string]any{"a": acct["id"]})
	require.Empty(t, g.Errors, string(g.Raw))
	g = f.sk.GraphQL(`query($a: ID!, $p: IdentityProvider) { identityVerifications(accountId: $a, filter: {provider: $p}) { edges { node { id } } } }`,
		map[string]any{"a": acct["id"], "p": "other"})
	require.NotEmpty(t, g.Errors, string(g.Raw))
	require.Nil(t, g.Data, string(g.Raw))
}
