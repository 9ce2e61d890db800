package graph_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"

	"github.com/frame-oss/payments-server/graph/dashboard"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// dashboardDocument is one of the documents the dashboard sends, as its
// module writes it.
func dashboardDocument(t *testing.T, name string) string {
	t.Helper()
	docs, err := dashboard.Documents()
	require.NoError(t, err)
	doc, ok := docs[name]
	require.True(t, ok, "the dashboard sends %s", name)
	return doc
}

// Every document the dashboard sends is valid against the schema, so a
// schema change that breaks a panel fails here, not in an operator's
// browser.
func TestDashboardDocumentsAreValid(t *testing.T) {
	t.Parallel()
	docs, err := dashboard.Documents()
	require.NoError(t, err)
	var names []string
	for name := range docs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, want := range []string{"DashboardAccounts", "DashboardTransfers", "DashboardEvents", "DashboardAccount",
		"DashboardAccountTransfers", "DashboardAccountPayouts", "DashboardAccountSubscriptions", "DashboardAccountEvents"} {
		require.Contains(t, names, want)
	}
	s := schemaWithDirectives(t)
	for _, name := range names {
		_, errs := gqlparser.LoadQuery(s, docs[name])
		require.Empty(t, errs, "%s:\n%s", name, docs[name])
	}
}

// The account page (DashboardAccount) is one request whose statements are
// a constant of its shape, every edge read through its loader: the same
// count for an account with one of each connected object as for one with
// many, and its lists are the account's own.
func TestDashboardAccountPageStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	f.sk.TopUp(100000)
	monthly := monthlyProduct(f, 2000, "monthly")
	doc := dashboardDocument(t, "DashboardAccount")

	fill := func(n int) string {
		acct, card := payoutReady(t, f)
		id := str(acct["id"])
		for i := range n {
			f.sk.CreateTransfer(testenv.Charge(id, card.ID.String(), 1000))
			f.sk.CreatePayout(testenv.Payout(card.ID.String(), 100))
			f.sk.CreateSubscription(testenv.AccountSubscription(id, monthly))
			if i < 2 {
				f.sk.CreateBankAccount(testenv.BankAccount(id, []string{"000123456789", "000222222227"}[i]))
			}
			// account.restricted and its way back: events of the account itself.
			require.Equal(t, 200, f.sk.Post("/v1/accounts/"+id+"/restrict", nil).Status)
			require.Equal(t, 200, f.sk.Post("/v1/accounts/"+id+"/unrestrict", nil).Status)
			f.env.Clock.Advance(time.Minute)
		}
		return id
	}
	one, many := fill(1), fill(7)
	// Another account's objects are not on the page.
	fill(2)

	page := func(id string) (*testenv.GraphQLResponse, map[string]any) {
		g := gql(t, f.sk, doc, map[string]any{"id": id})
		return g, obj(g.Data["account"])
	}
	small, a := page(one)
	big, b := page(many)
	require.Equal(t, small.Statements, big.Statements, "the page's statements do not grow with its objects")
	// The credential; the account with its capabilities; one statement
	// each for its bank accounts, payment methods, transfers' page,
	// payouts' page, subscriptions' page (and their products) and events'
	// page.
	require.Equal(t, 9, big.Statements)

	require.Equal(t, one, a["id"])
	require.Equal(t, many, b["id"])
	require.Len(t, list(b["bankAccounts"]), 2)
	require.Len(t, list(a["bankAccounts"]), 1)
	for _, conn := range []string{"transfers", "payouts", "subscriptions", "events"} {
		c := obj(b[conn])
		require.Len(t, list(c["edges"]), 5, conn)
		require.Equal(t, true, obj(c["pageInfo"])["hasNextPage"], conn)
		if conn != "events" { // created, activated, restricted, unrestricted...
			require.Len(t, list(obj(a[conn])["edges"]), 1, conn)
		}
	}
	rest := f.sk.Get("/v1/transfers?account_id=" + many).JSON()["data"].([]any)
	for i, e := range list(obj(b["transfers"])["edges"]) {
		require.Equal(t, obj(rest[i])["id"], obj(obj(e)["node"])["id"], "the account's own transfers, newest first")
	}

	// The next page of each list is one document of its own, as many
	// statements for every page, and the pages lead through the whole list
	// without repeating an object.
	for name, conn := range map[string]string{"DashboardAccountTransfers": "transfers", "DashboardAccountPayouts": "payouts",
		"DashboardAccountSubscriptions": "subscriptions", "DashboardAccountEvents": "events"} {
		next := dashboardDocument(t, name)
		seen := map[any]bool{}
		page := obj(b[conn])
		statements := 0
		for {
			for _, e := range list(page["edges"]) {
				id := obj(obj(e)["node"])["id"]
				require.False(t, seen[id], "%s repeats %v", name, id)
				seen[id] = true
			}
			if obj(page["pageInfo"])["hasNextPage"] != true {
				break
			}
			g := gql(t, f.sk, next, map[string]any{"id": many, "after": obj(page["pageInfo"])["endCursor"]})
			require.True(t, statements == 0 || statements == g.Statements, name)
			statements = g.Statements
			page = obj(obj(g.Data["account"])[conn])
		}
		require.LessOrEqual(t, statements, 4, name)
		if conn != "events" {
			require.Len(t, seen, 7, name)
		} else {
			require.Greater(t, len(seen), 7, name)
		}
	}
}
