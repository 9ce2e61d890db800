package graph_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers"
)

// withGraph serves /graphql with opts (the logger is the server's).
func withGraph(opts graph.Options) testenv.Option {
	return func(o *app.Options) {
		o.GraphQL = func(res *resolvers.Resolver, logger *slog.Logger) http.Handler {
			opts.Logger = logger
			return graph.NewHandler(res, opts)
		}
	}
}

// nodeIDs are ids of every kind node(id:) finds, and unknown ones.
type nodeIDs struct{ accounts, capabilities, events []string }

func createNodes(t *testing.T, f *fixture, accounts int) nodeIDs {
	t.Helper()
	var ids nodeIDs
	for range accounts {
		a := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc", "card_send"), "id capabilities { id }")
		ids.accounts = append(ids.accounts, str(a["id"]))
		for _, c := range list(a["capabilities"]) {
			ids.capabilities = append(ids.capabilities, str(obj(c)["id"]))
		}
	}
	g := gql(t, f.sk, `{ events(first: 100) { edges { node { id } } } }`, nil)
	for _, e := range list(obj(g.Data["events"])["edges"]) {
		ids.events = append(ids.events, str(obj(obj(e)["node"])["id"]))
	}
	require.GreaterOrEqual(t, len(ids.events), accounts)
	return ids
}

// mix returns n ids cycling through accounts, capabilities, events and
// unknown ids (fresh UUIDs: an unknown id is looked up by every loader).
func (ids nodeIDs) mix(n int) []string {
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		for _, kind := range [][]string{ids.accounts, ids.capabilities, ids.events, nil} {
			if len(out) == n {
				break
			}
			if kind == nil {
				out = append(out, uuid.NewString())
			} else {
				out = append(out, kind[i%len(kind)])
			}
		}
	}
	return out
}

// aliased is a query of one aliased field per id: field(id: "...") { sel }.
func aliased(field, sel string, ids []string) string {
	var b strings.Builder
	b.WriteString("{")
	for i, id := range ids {
		fmt.Fprintf(&b, " n%d: %s(id: %q) { %s }", i, field, id, sel)
	}
	b.WriteString(" }")
	return b.String()
}

// Finding 9: node(id:) and the root lookups by id load through the
// request's dataloaders, so a request of N aliased lookups runs the same
// number of SQL statements whatever N is, up to the alias limit, and past
// the loaders' old batch size (100) when the limit is raised.
func TestAliasedLookupsRunAConstantNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t, withGraph(graph.Options{MaxAliases: 400, MaxFields: 4000, TokenLimit: 20000}))
	ids := createNodes(t, f, 30)

	nodeSel := "__typename id ... on Capability { name account { id } } ... on Event { type }"
	one := gql(t, f.sk, aliased("node", nodeSel, ids.mix(4)), nil)
	require.NotZero(t, one.Statements, "the test server reports statement counts")
	for _, n := range []int{graph.DefaultMaxAliases, 400} {
		mixed := ids.mix(n)
		g := gql(t, f.sk, aliased("node", nodeSel, mixed), nil)
		require.Len(t, g.Data, n)
		for i, id := range mixed {
			node := g.Data[fmt.Sprintf("n%d", i)]
			if i%4 == 3 {
				require.Nil(t, node, "an unknown id is no node")
				continue
			}
			require.Equal(t, id, obj(node)["id"])
			require.Equal(t, []string{"Account", "Capability", "Event"}[i%4], obj(node)["__typename"])
		}
		require.Equal(t, one.Statements, g.Statements, "%d aliased node(id:) lookups", n)
		t.Logf("node(id:) x4: %d statements, x%d: %d", one.Statements, n, g.Statements)
	}

	// account(id:) and event(id:) alike; an unknown id is resource_missing.
	for _, field := range []string{"account", "event"} {
		known := ids.accounts
		if field == "event" {
			known = ids.events
		}
		lookups := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = known[i%len(known)]
				if i%2 == 1 {
					out[i] = uuid.NewString()
				}
			}
			return out
		}
		few := f.sk.GraphQL(aliased(field, "id", lookups(2)), nil)
		require.Len(t, few.Errors, 1, string(few.Raw))
		many := f.sk.GraphQL(aliased(field, "id", lookups(400)), nil)
		require.Equal(t, http.StatusOK, many.Status)
		require.Len(t, many.Data, 400)
		require.Equal(t, few.Statements, many.Statements, "%s(id:) x2 and x400", field)
		require.Equal(t, 2, many.Statements, "the credential, the ids in one batch")
		require.Len(t, many.Errors, graph.DefaultMaxErrors+1, "200 resource_missing errors, cut to the limit and a note")
		require.Equal(t, "resource_missing", code(many.Errors[0]))
		require.Equal(t, graph.CodeTooManyErrors, code(many.Errors[graph.DefaultMaxErrors]))
		t.Logf("%s(id:) x2: %d statements, x400: %d", field, few.Statements, many.Statements)
	}
}

// At the default limits a request cannot carry the 2,400 aliased lookups
// that ran 2,478 statements before: it is refused before anything runs.
func TestTheAliasLimitBoundsFanOut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ids := make([]string, 2400)
	for i := range ids {
		ids[i] = uuid.NewString()
	}
	g := f.sk.GraphQL(aliased("node", "id", ids), nil)
	require.Equal(t, http.StatusBadRequest, g.Status)
	require.Len(t, g.Errors, 1, string(g.Raw))
	require.Contains(t, []string{graph.CodeTooManyAliases, graph.CodeQueryTooLarge, graph.CodeTooManyFields}, code(g.Errors[0]))
	require.LessOrEqual(t, g.Statements, 1, "at most the credential's statement")
}

// capabilities(accountId:) and capability(accountId:, name:) read their
// accounts through the account loader too: N aliased lookups run the
// statements two do.
func TestAliasedCapabilityLookupsRunAConstantNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t, withGraph(graph.Options{MaxAliases: 400, MaxFields: 4000, TokenLimit: 20000}))
	ids := createNodes(t, f, 10)
	query := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			acct := ids.accounts[i%len(ids.accounts)]
			fmt.Fprintf(&b, " l%d: capabilities(accountId: %q) { name status }", i, acct)
			fmt.Fprintf(&b, " g%d: capability(accountId: %q, name: KYC) { name currentlyDue }", i, acct)
		}
		b.WriteString(" }")
		return b.String()
	}
	few := gql(t, f.sk, query(1), nil)
	many := gql(t, f.sk, query(150), nil)
	require.Len(t, many.Data, 300)
	require.Equal(t, "KYC", obj(many.Data["g149"])["name"])
	require.Equal(t, few.Statements, many.Statements, "capability lookups x2 and x300")
	require.Equal(t, 2, many.Statements, "the credential, the accounts in one batch (capabilities are read with them)")

	// The credential rule still comes first: a publishable key is refused
	// before any account is read.
	g := f.pk.GraphQL(query(1), nil)
	require.NotEmpty(t, g.Errors)
	require.Equal(t, "forbidden", code(g.Errors[0]))
}
