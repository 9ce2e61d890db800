package graph_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

const accountsPage = `query($first: Int, $after: String, $filter: AccountFilter) {
	accounts(first: $first, after: $after, filter: $filter) {
		edges { cursor node { id } }
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
	}
}`

// pageThrough reads every page of accounts(first: n) and returns the ids
// in order.
func pageThrough(t *testing.T, c *testenv.Client, n int, filter map[string]any) []string {
	t.Helper()
	var ids []string
	var after any
	for range 100 {
		g := gql(t, c, accountsPage, map[string]any{"first": n, "after": after, "filter": filter})
		conn := obj(g.Data["accounts"])
		edges := list(conn["edges"])
		info := obj(conn["pageInfo"])
		require.LessOrEqual(t, len(edges), n)
		require.Equal(t, after != nil, info["hasPreviousPage"])
		for _, e := range edges {
			ids = append(ids, str(obj(obj(e)["node"])["id"]))
		}
		if len(edges) > 0 {
			require.Equal(t, obj(edges[0])["cursor"], info["startCursor"])
			require.Equal(t, obj(edges[len(edges)-1])["cursor"], info["endCursor"])
		} else {
			require.Nil(t, info["endCursor"])
		}
		if info["hasNextPage"] != true {
			return ids
		}
		require.Len(t, edges, n, "a page before the last is full")
		after = info["endCursor"]
	}
	t.Fatal("paging did not end")
	return nil
}

func TestAccountsConnectionPaging(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var created []string // oldest first
	for i := range 7 {
		if i == 3 {
			// Several accounts created in the same instant: the cursor's id
			// breaks the tie, so paging neither repeats nor skips them.
			f.env.Clock.SetStep(0)
		}
		created = append(created, str(f.sk.CreateAccountGraphQL(testenv.Individual(), accountFields)["id"]))
	}
	var want []string // newest first
	g := gql(t, f.sk, accountsPage, map[string]any{"first": 100})
	for _, e := range list(obj(g.Data["accounts"])["edges"]) {
		want = append(want, str(obj(obj(e)["node"])["id"]))
	}
	require.ElementsMatch(t, created, want)
	require.Equal(t, created[0], want[len(want)-1], "newest first")
	require.Equal(t, created[1], want[len(want)-2])

	for _, n := range []int{1, 2, 3, 7} {
		require.Equal(t, want, pageThrough(t, f.sk, n, nil), "first: %d", n)
	}

	// REST agrees on the order.
	r := f.sk.Get("/v1/accounts?per_page=100")
	require.Equal(t, http.StatusOK, r.Status)
	var body struct{ Data []struct{ ID string } }
	r.Decode(&body)
	var restIDs []string
	for _, a := range body.Data {
		restIDs = append(restIDs, a.ID)
	}
	require.Equal(t, want, restIDs)

	// first is 1..100 (anything else is refused: filters_refuse_test.go); the default is 10.
	g = gql(t, f.sk, accountsPage, map[string]any{"first": 1})
	require.Len(t, list(obj(g.Data["accounts"])["edges"]), 1)
	g = gql(t, f.sk, `{ accounts { edges { cursor } } }`, nil)
	require.Len(t, list(obj(g.Data["accounts"])["edges"]), 7)

	// Filters: disabled accounts only when asked for, by name, by e-mail.
	gql(t, f.sk, `mutation($id: ID!) { disableAccount(id: $id) { id } }`, map[string]any{"id": created[0]})
	require.Equal(t, want[:6], pageThrough(t, f.sk, 4, nil))
	require.Equal(t, want, pageThrough(t, f.sk, 4, map[string]any{"includeDisabled": true}))
	require.Equal(t, []string{created[0]}, pageThrough(t, f.sk, 4, map[string]any{"status": "DISABLED"}))
	require.Empty(t, pageThrough(t, f.sk, 4, map[string]any{"type": "BUSINESS"}))
	require.Len(t, pageThrough(t, f.sk, 4, map[string]any{"name": "LOVE"}), 6)
	require.Len(t, pageThrough(t, f.sk, 4, map[string]any{"name": " ada   lovelace "}), 6)
	require.Len(t, pageThrough(t, f.sk, 4, map[string]any{"email": "ADA@example.com"}), 6)
	require.Empty(t, pageThrough(t, f.sk, 4, map[string]any{"name": "babbage"}))

	// Another merchant sees none of them.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "other"})
	require.Empty(t, pageThrough(t, f.env.Client(keys.Sandbox.Secret), 10, nil))

	// A malformed cursor is a validation error on `after`.
	for _, bad := range []string{"nope", "bm9wZQ", "MTIzOm5vcGU"} {
		_, e := gqlError(t, f.sk, accountsPage, map[string]any{"after": bad})
		require.Equal(t, "validation_errors", code(e), bad)
		require.Equal(t, "after", e.Extensions["param"])
	}
}

func TestStatementCountIsAConstantOfTheQueryShape(t *testing.T) {
	t.Parallel()
	f := setup(t)
	queries := map[string]string{
		"capabilities":          `{ accounts(first: 10) { edges { node { id capabilities { name status } } } } }`,
		"capabilities->account": `{ accounts(first: 10) { edges { node { id capabilities { name account { id status capabilities { name } } } } } } }`,
	}
	count := func(q string, wantEdges int) int {
		g := gql(t, f.sk, q, nil)
		require.Len(t, list(obj(g.Data["accounts"])["edges"]), wantEdges)
		require.NotZero(t, g.Statements, "the test server reports statement counts")
		return g.Statements
	}
	create := func(n int) {
		for range n {
			f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc_prefill", "card_send"), accountFields)
		}
	}

	create(2)
	at2 := map[string]int{}
	for name, q := range queries {
		at2[name] = count(q, 2)
	}
	create(8)
	for name, q := range queries {
		at10 := count(q, 10)
		require.Equal(t, at2[name], at10, "%s: statements for 2 accounts and for 10", name)
		// The credential's statement and one more: the page, each account
		// with its capabilities (and the accounts they point back to, loaded
		// with it).
		require.Equal(t, 2, at10, name)
		t.Logf("%s: %d statements", name, at10)
	}

	// account(id:) loads through a batching loader: two accounts cost what
	// one does.
	var ids []string
	g := gql(t, f.sk, `{ accounts(first: 3) { edges { node { id } } } }`, nil)
	for _, e := range list(obj(g.Data["accounts"])["edges"]) {
		ids = append(ids, str(obj(obj(e)["node"])["id"]))
	}
	one := gql(t, f.sk, `query($a: ID!) { a: account(id: $a) { id capabilities { name } } }`, map[string]any{"a": ids[0]})
	three := gql(t, f.sk, `query($a: ID!, $b: ID!, $c: ID!) {
		a: account(id: $a) { id capabilities { name } }
		b: account(id: $b) { id capabilities { name } }
		c: account(id: $c) { id capabilities { name } }
	}`, map[string]any{"a": ids[0], "b": ids[1], "c": ids[2]})
	require.Equal(t, ids[2], obj(three.Data["c"])["id"])
	require.Equal(t, one.Statements, three.Statements)
	require.Equal(t, 2, three.Statements, "the credential, the three accounts in one batch")
	t.Logf("account(id:) x1: %d statements, x3: %d", one.Statements, three.Statements)
}

func TestNode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc"), accountFields)
	capID := obj(list(a["capabilities"])[0])["id"]
	g := gql(t, f.sk, `{ events(first: 1) { edges { node { id type data } } } }`, nil)
	ev := obj(obj(list(obj(g.Data["events"])["edges"])[0])["node"])
	require.Equal(t, "account.created", ev["type"])
	data := obj(ev["data"])
	require.Equal(t, a["id"], obj(data["object"])["id"], "event data is the REST rendering")
	require.Equal(t, "account", obj(data["object"])["object"])

	q := `query($id: ID!) { node(id: $id) {
		__typename id
		... on Account { status }
		... on Capability { name account { id } }
		... on Event { type }
	} }`
	g = gql(t, f.sk, q, map[string]any{"id": a["id"]})
	require.Equal(t, map[string]any{"__typename": "Account", "id": a["id"], "status": "PENDING"}, g.Data["node"])
	g = gql(t, f.sk, q, map[string]any{"id": capID})
	require.Equal(t, map[string]any{"__typename": "Capability", "id": capID, "name": "KYC", "account": map[string]any{"id": a["id"]}}, g.Data["node"])
	g = gql(t, f.sk, q, map[string]any{"id": ev["id"]})
	require.Equal(t, map[string]any{"__typename": "Event", "id": ev["id"], "type": "account.created"}, g.Data["node"])

	// Unknown, malformed and other tenants' ids are null without an error.
	for _, id := range []string{"0190d5f0-0000-7000-8000-000000000000", "garbage"} {
		g = gql(t, f.sk, q, map[string]any{"id": id})
		require.Equal(t, map[string]any{"node": nil}, g.Data)
	}
	g = gql(t, f.live, q, map[string]any{"id": a["id"]})
	require.Equal(t, map[string]any{"node": nil}, g.Data)

	// A publishable key refetches the account without its internals, and
	// nothing else.
	g = gql(t, f.pk, `query($id: ID!) { node(id: $id) { ... on Account { id profile { individual { email } } } } }`, map[string]any{"id": a["id"]})
	require.Equal(t, map[string]any{"id": a["id"], "profile": nil}, g.Data["node"])
	g = gql(t, f.pk, q, map[string]any{"id": capID})
	require.Equal(t, map[string]any{"node": nil}, g.Data)

	// event(id:) and the events connection.
	g = gql(t, f.sk, `query($id: ID!) { event(id: $id) { id livemode created } }`, map[string]any{"id": ev["id"]})
	require.Equal(t, false, obj(g.Data["event"])["livemode"])
	_, e := gqlError(t, f.sk, `query($id: ID!) { event(id: $id) { id } }`, map[string]any{"id": a["id"]})
	require.Equal(t, "resource_missing", code(e))
	g = gql(t, f.sk, `{ events(first: 1, type: "account.created") { edges { cursor } pageInfo { hasNextPage endCursor } } }`, nil)
	info := obj(obj(g.Data["events"])["pageInfo"])
	require.Equal(t, false, info["hasNextPage"])
	g = gql(t, f.sk, `query($after: String) { events(first: 5, after: $after) { edges { cursor } } }`, map[string]any{"after": info["endCursor"]})
	require.Empty(t, list(obj(g.Data["events"])["edges"]))
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc"), accountFields)

	// account > capabilities > account > ... : depth 2 per hop.
	nest := func(hops int) string {
		q := "id"
		for range hops {
			q = "id capabilities { account { " + q + " } }"
		}
		return `query($id: ID!) { account(id: $id) { ` + q + ` } }`
	}
	g := gql(t, f.sk, nest(5), map[string]any{"id": a["id"]}) // depth 12
	require.NotNil(t, g.Data["account"])

	g, e := gqlError(t, f.sk, nest(6), map[string]any{"id": a["id"]}) // depth 14
	require.Equal(t, http.StatusOK, g.Status, "a document refused is answered 200 in application/json")
	require.Equal(t, "DEPTH_LIMIT_EXCEEDED", code(e))
	require.Nil(t, g.Data)

	// Fragments count where they are spread.
	frag := `query($id: ID!) { account(id: $id) { ...A } }
	fragment A on Account { ` + strings.Repeat("capabilities { account { ", 6) + "id" + strings.Repeat(" } }", 6) + " }"
	_, e = gqlError(t, f.sk, frag, map[string]any{"id": a["id"]})
	require.Equal(t, "DEPTH_LIMIT_EXCEEDED", code(e))

	// Introspection is on and not counted.
	g = gql(t, f.sk, `{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name ofType { name ofType { name ofType { name } } } } } } } } } } }`, nil)
	require.NotEmpty(t, obj(g.Data["__schema"])["types"])
}

func TestComplexityLimit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Every field of 100 accounts: a connection's children count `first`
	// times, which takes this past the limit.
	g, e := gqlError(t, f.sk, `{ accounts(first: 100) { edges { cursor node { `+accountFields+` } } } }`, nil)
	require.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", code(e))
	require.Nil(t, g.Data)
	// A dashboard page of 100 accounts with their capabilities fits.
	gql(t, f.sk, `{ accounts(first: 100) { edges { cursor node { id type status externalId metadata created updated
		profile { individual { email } }
		capabilities { id name status currentlyDue created account { id status } } steps { key status } } } } }`, nil)
}

func TestAutomaticPersistedQueries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccountGraphQL(testenv.Individual(), accountFields)
	query := `query($id: ID!) { account(id: $id) { id status } }`
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])
	ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}
	vars := map[string]any{"id": a["id"]}
	want := map[string]any{"account": map[string]any{"id": a["id"], "status": "PENDING"}}
	post := func(body map[string]any) (int, map[string]any) {
		r := f.sk.Post("/graphql", body)
		return r.Status, r.JSON()
	}

	// The hash alone is not known yet.
	st, body := post(map[string]any{"extensions": ext, "variables": vars})
	require.Equal(t, http.StatusOK, st)
	errs := list(body["errors"])
	require.Equal(t, "PERSISTED_QUERY_NOT_FOUND", obj(obj(errs[0])["extensions"])["code"])

	// Hash and query register it; a wrong hash is refused.
	st, body = post(map[string]any{"query": query, "extensions": ext, "variables": vars})
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, want, body["data"])
	_, body = post(map[string]any{"query": query + " ", "extensions": ext, "variables": vars})
	require.NotEmpty(t, body["errors"])

	// Then the hash alone runs it, over POST and over GET.
	st, body = post(map[string]any{"extensions": ext, "variables": vars})
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, want, body["data"])
	require.Nil(t, body["errors"])

	rawExt := `{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`
	rawVars := `{"id":"` + str(a["id"]) + `"}`
	r := f.sk.Get("/graphql?extensions=" + url.QueryEscape(rawExt) + "&variables=" + url.QueryEscape(rawVars))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, want, r.JSON()["data"])
}

func TestGETTransport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Get("/graphql?query=" + url.QueryEscape(`{ accounts { edges { cursor } } }`))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"accounts": map[string]any{"edges": []any{}}}, r.JSON()["data"])
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))

	// Mutations need POST.
	r = f.sk.Get("/graphql?query=" + url.QueryEscape(`mutation { disableAccount(id: "x") { id } }`))
	require.NotEqual(t, http.StatusOK, r.Status)
	require.True(t, strings.Contains(string(r.Body), "errors"), string(r.Body))
}
