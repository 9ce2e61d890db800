package graph_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// pageEdgeCase is a connection under a page of parents: the root list of
// the parents, the edge, and REST's list of one parent's rows.
type pageEdgeCase struct {
	root, edge, filter, rest string
}

// Account.payouts, Account.subscriptions, Account.invoices,
// Customer.subscriptions and Customer.invoices are page edges: the
// statement count is the same for one parent or a page of them, each alias
// asking other arguments adds one, and a parent's pages are REST's list
// of its rows with the same filter.
func TestPayerConnectionsArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	f.sk.TopUp(100000)
	monthly := monthlyProduct(f, 2000, "monthly")
	var accounts, customers []string
	for range 3 {
		acct, card := payoutReady(t, f)
		id := str(acct["id"])
		for range 3 {
			f.sk.CreatePayout(testenv.Payout(card.ID.String(), 100))
			f.sk.CreateSubscription(testenv.AccountSubscription(id, monthly))
			f.env.Clock.Advance(time.Minute)
		}
		accounts = append(accounts, id)
		cu := f.sk.CreateCustomer(testenv.Customer())
		f.sk.CreateCard(cu.ID.String(), testenv.Visa)
		for range 3 {
			f.sk.CreateSubscription(testenv.Subscription(cu.ID.String(), monthly))
			f.env.Clock.Advance(time.Minute)
		}
		customers = append(customers, cu.ID.String())
	}

	cases := []pageEdgeCase{
		{"accounts", "payouts", `status: SUCCEEDED`, "/v1/payouts?status=succeeded&account_id="},
		{"accounts", "subscriptions", `status: ACTIVE`, "/v1/subscriptions/search?status=active&account="},
		{"accounts", "invoices", `status: PAID`, "/v1/invoices?status=paid&account="},
		{"customers", "subscriptions", `status: ACTIVE`, "/v1/subscriptions/search?status=active&customer="},
		{"customers", "invoices", `status: PAID`, "/v1/invoices?status=paid&customer="},
	}
	for _, c := range cases {
		t.Run(c.root+"."+c.edge, func(t *testing.T) {
			parents := accounts
			if c.root == "customers" {
				parents = customers
			}
			// REST's list of the first parent's rows, with the filter.
			want := []any{}
			body := f.sk.Get(c.rest + parents[0]).JSON()
			rows, ok := body["data"].([]any)
			if !ok { // the search answers under the resource's name
				rows = body[c.edge].([]any)
			}
			for _, r := range rows {
				want = append(want, obj(r)["id"])
			}
			require.Len(t, want, 3, "REST lists the parent's rows")

			one := `query($first: Int) { ` + c.root + `(first: $first) { edges { node { id
				` + c.edge + `(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } } } }`
			small := gql(t, f.sk, one, map[string]any{"first": 1})
			big := gql(t, f.sk, one, map[string]any{"first": 100})
			// The credential, the page of parents, the pages of their rows.
			require.Equal(t, small.Statements, big.Statements, string(big.Raw))
			require.Equal(t, 3, big.Statements, string(big.Raw))
			edges := list(obj(big.Data[c.root])["edges"])
			require.Len(t, edges, 3)
			for _, e := range edges {
				conn := obj(obj(obj(e)["node"])[c.edge])
				require.Len(t, list(conn["edges"]), 2)
				require.Equal(t, true, obj(conn["pageInfo"])["hasNextPage"])
			}

			// The first parent's pages, after a cursor too, with the
			// filter, are REST's list.
			byID := `query($first: Int, $after: String) { ` + c.root + `(first: 100) { edges { node { id
				` + c.edge + `(first: $first, after: $after, ` + c.filter + `) { edges { node { id } } pageInfo { hasNextPage endCursor } } } } } }`
			pageOf := func(g *testenv.GraphQLResponse) map[string]any {
				for _, e := range list(obj(g.Data[c.root])["edges"]) {
					if n := obj(obj(e)["node"]); n["id"] == parents[0] {
						return obj(n[c.edge])
					}
				}
				t.Fatalf("no parent %s in %s", parents[0], g.Raw)
				return nil
			}
			first := pageOf(gql(t, f.sk, byID, map[string]any{"first": 2}))
			next := pageOf(gql(t, f.sk, byID, map[string]any{"first": 2, "after": obj(first["pageInfo"])["endCursor"]}))
			require.Equal(t, false, obj(next["pageInfo"])["hasNextPage"])
			got := []any{}
			for _, conn := range []map[string]any{first, next} {
				for _, e := range list(conn["edges"]) {
					got = append(got, obj(obj(e)["node"])["id"])
				}
			}
			require.Equal(t, want, got)

			// Aliases: one statement per distinct set of arguments.
			aliased := `query($first: Int) { ` + c.root + `(first: $first) { edges { node { id
				a: ` + c.edge + `(first: 3, ` + c.filter + `) { edges { node { id } } }
				b: ` + c.edge + `(first: 1) { edges { node { id } } }
				c: ` + c.edge + `(first: 3, ` + c.filter + `) { edges { node { id } } } } } } }`
			small = gql(t, f.sk, aliased, map[string]any{"first": 1})
			big = gql(t, f.sk, aliased, map[string]any{"first": 100})
			require.Equal(t, small.Statements, big.Statements, string(big.Raw))
			require.Equal(t, 4, big.Statements, string(big.Raw))
			for _, e := range list(obj(big.Data[c.root])["edges"]) {
				n := obj(obj(e)["node"])
				if n["id"] != parents[0] && n["id"] != parents[1] && n["id"] != parents[2] {
					continue
				}
				require.Len(t, list(obj(n["a"])["edges"]), 3)
				require.Len(t, list(obj(n["b"])["edges"]), 1)
				require.Len(t, list(obj(n["c"])["edges"]), 3)
			}
		})
	}
}
