package graph_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// payerMoney is what one payer (an account or a customer) paid: its
// charges, each refunded once (partly) and then disputed, in the order
// they were made.
type payerMoney struct {
	id, firstTransfer, firstIntent string
	charges                        []string
}

// payerMoneyCase is a connection under a page of payers: the root list of
// the payers, the edge, a filter (of the first payer's rows), and the
// first payer's rows newest first, without the filter and with it.
type payerMoneyCase struct {
	root, edge, filter string
	all, filtered      []any
}

// Account.charges/refunds/disputes/events and Customer.charges/refunds/
// disputes/events are page edges: the statement count is the same for one
// payer or a page of them, each alias asking other arguments adds one, a
// payer's pages through the cursor are REST's list of its rows (filtered
// as REST filters them), another merchant's rows never appear, and the
// credentials REST's lists refuse are refused.
func TestPayerMoneyConnectionsArePageEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	tick := func() { f.env.Clock.Advance(time.Minute) }

	// pay makes a charge of the payer (through a transfer for an account,
	// a charge intent for a customer), refunds part of it and disputes it.
	var accounts, customers []*payerMoney
	pay := func(p *payerMoney, charge func() (charge, transfer, intent string)) {
		ch, tr, ci := charge()
		tick()
		refund := testenv.RefundOfTransfer(tr)
		if ci != "" {
			refund = testenv.RefundOfChargeIntent(ci)
		}
		f.sk.CreateRefund(refund.WithAmount(100))
		tick()
		f.sk.OpenDispute(ch, "")
		tick()
		if len(p.charges) == 0 {
			p.firstTransfer, p.firstIntent = tr, ci
		}
		p.charges = append(p.charges, ch)
	}
	for range 3 {
		acct := f.sk.CreateAccount(testenv.Individual())
		p := &payerMoney{id: str(acct["id"])}
		card := f.sk.CreateAccountCard(p.id, "4242424242424242")
		for i := range 3 {
			pay(p, func() (string, string, string) {
				tr := f.sk.CreateTransfer(testenv.Charge(p.id, card.ID.String(), 1000))
				return tr.LatestCharge.String(), tr.ID.String(), ""
			})
			if i < 2 { // account.updated twice, after account.created
				r := f.sk.Patch("/v1/accounts/"+p.id, map[string]any{"metadata": map[string]any{"n": string(rune('a' + i))}})
				require.Equal(t, http.StatusOK, r.Status, string(r.Body))
				tick()
			}
		}
		accounts = append(accounts, p)

		cu := f.sk.CreateCustomer(testenv.Customer())
		c := &payerMoney{id: cu.ID.String()}
		for i := range 3 {
			pay(c, func() (string, string, string) {
				ci := f.sk.CreateChargeIntent(map[string]any{"amount": 1000, "currency": "usd", "confirm": true,
					"customer": c.id, "payment_method_data": testenv.CardData("4242424242424242")})
				return ci.LatestCharge.ID.String(), "", ci.ID.String()
			})
			if i < 2 { // customer.updated twice, after customer.created
				r := f.sk.Patch("/v1/customers/"+c.id, map[string]any{"metadata": map[string]any{"n": string(rune('a' + i))}})
				require.Equal(t, http.StatusOK, r.Status, string(r.Body))
				tick()
			}
		}
		customers = append(customers, c)
	}

	// Another merchant's payer with the same story: its rows never appear.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "other"})
	other := f.env.Client(keys.Sandbox.Secret)
	other.StandardPricing()
	otherAcct := other.CreateAccount(testenv.Individual())
	otherCard := other.CreateAccountCard(str(otherAcct["id"]), "4242424242424242")
	otherTransfer := other.CreateTransfer(testenv.Charge(str(otherAcct["id"]), otherCard.ID.String(), 1000))
	other.CreateRefund(testenv.RefundOfTransfer(otherTransfer.ID.String()).WithAmount(100))

	// restRows is REST's list (newest first, every page of it) cut to
	// the rows keep keeps.
	restRows := func(path string, keep func(row map[string]any) bool) []any {
		out := []any{}
		for page := 1; ; page++ {
			body := f.sk.Get(path + "&per_page=100&page=" + strconv.Itoa(page)).JSON()
			for _, row := range body["data"].([]any) {
				if keep(obj(row)) {
					out = append(out, obj(row)["id"])
				}
			}
			if obj(body["meta"])["has_more"] != true {
				return out
			}
		}
	}
	ofCharges := func(p *payerMoney) func(map[string]any) bool {
		return func(row map[string]any) bool { return slices.Contains(p.charges, str(row["charge"])) }
	}
	ofObject := func(p *payerMoney) func(map[string]any) bool {
		return func(row map[string]any) bool { return obj(obj(row["data"])["object"])["id"] == p.id }
	}
	newestFirst := func(ids []string) []any {
		out := []any{}
		for i := len(ids) - 1; i >= 0; i-- {
			out = append(out, ids[i])
		}
		return out
	}

	var cases []payerMoneyCase
	for _, root := range []string{"accounts", "customers"} {
		p, byTransfer, restByTransfer, updated := accounts[0], `transfer: "`+accounts[0].firstTransfer+`"`,
			"transfer="+accounts[0].firstTransfer, "account.updated"
		if root == "customers" {
			p, byTransfer, restByTransfer, updated = customers[0], `chargeIntent: "`+customers[0].firstIntent+`"`,
				"charge_intent="+customers[0].firstIntent, "customer.updated"
		}
		byCharge := `charge: "` + p.charges[0] + `"`
		cases = append(cases,
			// REST has no charge list: the payer's charges are the ones it paid.
			payerMoneyCase{root, "charges", "", newestFirst(p.charges), newestFirst(p.charges)},
			payerMoneyCase{root, "refunds", byTransfer, restRows("/v1/refunds?", ofCharges(p)),
				restRows("/v1/refunds?"+restByTransfer, ofCharges(p))},
			payerMoneyCase{root, "disputes", byCharge, restRows("/v1/disputes?", ofCharges(p)),
				restRows("/v1/disputes?charge="+p.charges[0], ofCharges(p))},
			payerMoneyCase{root, "events", `type: "` + updated + `"`, restRows("/v1/events?", ofObject(p)),
				restRows("/v1/events?type="+updated, ofObject(p))},
		)
	}

	for _, c := range cases {
		t.Run(c.root+"."+c.edge, func(t *testing.T) {
			parents := accounts
			if c.root == "customers" {
				parents = customers
			}
			require.Len(t, c.all, 3, "the payer's rows")
			if c.filter != "" {
				require.NotEmpty(t, c.filtered)
				require.Less(t, len(c.filtered), len(c.all), "the filter keeps some of the rows")
			}

			one := `query($first: Int) { ` + c.root + `(first: $first) { edges { node { id
				` + c.edge + `(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } } } }`
			small := gql(t, f.sk, one, map[string]any{"first": 1})
			big := gql(t, f.sk, one, map[string]any{"first": 100})
			// The credential, the page of payers, the pages of their rows.
			require.Equal(t, small.Statements, big.Statements, string(big.Raw))
			require.Equal(t, 3, big.Statements, string(big.Raw))
			edges := list(obj(big.Data[c.root])["edges"])
			require.Len(t, edges, 3)
			for _, e := range edges {
				conn := obj(obj(obj(e)["node"])[c.edge])
				require.Len(t, list(conn["edges"]), 2)
				require.Equal(t, true, obj(conn["pageInfo"])["hasNextPage"])
			}

			// The first payer's pages through the cursor, then with the
			// filter, are REST's lists of its rows.
			byPage := `query($first: Int, $after: String) { ` + c.root + `(first: 100) { edges { node { id
				` + c.edge + `(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } }
				filtered: ` + c.edge + `(first: 10` + comma(c.filter) + `) { edges { node { id } } } } } } }`
			pageOf := func(g *testenv.GraphQLResponse, field string) map[string]any {
				for _, e := range list(obj(g.Data[c.root])["edges"]) {
					if n := obj(obj(e)["node"]); n["id"] == parents[0].id {
						return obj(n[field])
					}
				}
				t.Fatalf("no payer %s in %s", parents[0].id, g.Raw)
				return nil
			}
			g := gql(t, f.sk, byPage, map[string]any{"first": 2})
			first := pageOf(g, c.edge)
			require.Equal(t, c.filtered, ids(pageOf(g, "filtered")))
			next := pageOf(gql(t, f.sk, byPage, map[string]any{"first": 2, "after": obj(first["pageInfo"])["endCursor"]}), c.edge)
			require.Equal(t, false, obj(next["pageInfo"])["hasNextPage"])
			require.Equal(t, c.all, append(ids(first), ids(next)...))

			// Aliases: one statement per distinct set of arguments.
			aliased := `query($first: Int) { ` + c.root + `(first: $first) { edges { node { id
				a: ` + c.edge + `(first: 3` + comma(c.filter) + `) { edges { node { id } } }
				b: ` + c.edge + `(first: 1) { edges { node { id } } }
				c: ` + c.edge + `(first: 3` + comma(c.filter) + `) { edges { node { id } } } } } } }`
			small = gql(t, f.sk, aliased, map[string]any{"first": 1})
			big = gql(t, f.sk, aliased, map[string]any{"first": 100})
			require.Equal(t, small.Statements, big.Statements, string(big.Raw))
			require.Equal(t, 4, big.Statements, string(big.Raw))
			for _, e := range list(obj(big.Data[c.root])["edges"]) {
				n := obj(obj(e)["node"])
				require.Len(t, list(obj(n["b"])["edges"]), 1)
				if n["id"] == parents[0].id {
					require.Equal(t, c.filtered, ids(obj(n["a"])))
					require.Equal(t, c.filtered, ids(obj(n["c"])))
				}
			}

			// The other merchant sees its own rows only.
			g = gql(t, other, `{ `+c.root+` { edges { node { id `+c.edge+` { edges { node { id } } } } } } }`, nil)
			for _, e := range list(obj(g.Data[c.root])["edges"]) {
				for _, row := range ids(obj(obj(obj(e)["node"])[c.edge])) {
					require.NotContains(t, c.all, row)
				}
			}
		})
	}

	// Credentials: the publishable key reads an account, but REST refuses
	// it the refund, dispute and event lists and the charges, and so do
	// the edges.
	for _, path := range []string{"/v1/refunds", "/v1/disputes", "/v1/events", "/v1/charges/" + accounts[0].charges[0]} {
		require.Equal(t, http.StatusForbidden, f.pk.Get(path).Status, path)
	}
	for _, edge := range []string{"charges", "refunds", "disputes", "events"} {
		g, e := gqlError(t, f.pk, `query($id: ID!) { account(id: $id) { id `+edge+` { edges { node { id } } } } }`,
			map[string]any{"id": accounts[0].id})
		require.Equal(t, "forbidden", code(e), string(g.Raw))
		require.Equal(t, []any{"account", edge}, e.Path, "the edge refuses, not the account")
	}
}

// comma is a filter argument after others, or nothing.
func comma(filter string) string {
	if filter == "" {
		return ""
	}
	return ", " + filter
}

// ids are the node ids of a connection's edges.
func ids(conn map[string]any) []any {
	out := []any{}
	for _, e := range list(conn["edges"]) {
		out = append(out, obj(obj(e)["node"])["id"])
	}
	return out
}
