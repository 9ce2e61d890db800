package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// An account read derives only the members the operation selects, and the
// operation as a whole decides: an account the page read without them and
// a later field renders again (through the request's loader) still shows
// every derived member that field selects, as a read of everything shows
// it.
func TestAccountReadsDeriveWhatTheOperationSelects(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Pending capabilities with requirements due and steps to do, and an
	// active-less account blocked by nothing yet: every derived member has
	// something to show.
	f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc", "phone_verification"))
	f.sk.CreateAccount(testenv.Business().WithCapabilities("kyc"))

	const derived = `id blockedReason steps { key status fields currentlyDue }
		capabilities { name status currentlyDue errors { code requirement reason } }`
	whole := gql(t, f.sk, `{ accounts(first: 5) { edges { node { `+derived+` } } } }`, nil)
	byID := map[string]map[string]any{}
	for _, e := range list(obj(whole.Data["accounts"])["edges"]) {
		n := obj(obj(e)["node"])
		require.NotEmpty(t, list(n["steps"]))
		require.NotEmpty(t, list(obj(list(n["capabilities"])[0])["currentlyDue"]))
		byID[str(n["id"])] = n
	}
	require.Len(t, byID, 2)

	for _, tc := range []struct {
		name  string
		query string
		// accounts finds the accounts (each with the fields of derived)
		// in the answer.
		accounts func(data map[string]any) []map[string]any
	}{
		{"the page selects nothing derived, its capabilities' account everything",
			`{ accounts(first: 5) { edges { node { id capabilities { name account { ` + derived + ` } } } } } }`,
			func(data map[string]any) []map[string]any {
				var out []map[string]any
				for _, n := range pageNodes(data) {
					for _, c := range list(n["capabilities"]) {
						out = append(out, obj(obj(c)["account"]))
					}
				}
				return out
			}},
		{"the derived members in a named fragment",
			`query { accounts(first: 5) { edges { node { ...Derived } } } } fragment Derived on Account { ` + derived + ` }`,
			pageNodes},
		{"the derived members in an inline fragment of a node",
			`query { accounts(first: 5) { edges { node { ... on Node { ... on Account { ` + derived + ` } } } } } }`,
			pageNodes},
		{"another root field selects them",
			`query { accounts(first: 5) { edges { node { id status } } }
				again: accounts(first: 5) { edges { node { ` + derived + ` } } } }`,
			func(data map[string]any) []map[string]any {
				return pageNodes(map[string]any{"accounts": data["again"]})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gql(t, f.sk, tc.query, nil)
			got := tc.accounts(g.Data)
			require.NotEmpty(t, got)
			for _, a := range got {
				require.Equal(t, byID[str(a["id"])], a)
			}
		})
	}

	// What a page that selects nothing derived shows is what a read of
	// everything shows of the same fields.
	g := gql(t, f.sk, `{ accounts(first: 5) { edges { node { id status blockedReason capabilities { name status } } } } }`, nil)
	for _, n := range pageNodes(g.Data) {
		want := byID[str(n["id"])]
		require.Equal(t, want["blockedReason"], n["blockedReason"])
		require.Len(t, list(n["capabilities"]), len(list(want["capabilities"])))
		for i, c := range list(n["capabilities"]) {
			wc := obj(list(want["capabilities"])[i])
			require.Equal(t, map[string]any{"name": wc["name"], "status": wc["status"]}, c)
		}
	}

	// A capability read by id and the capabilities of an account read by
	// id derive their requirements when selected.
	id := str(pageNodes(whole.Data)[0]["id"])
	g = gql(t, f.sk, `query($id: ID!) { capabilities(accountId: $id) { name currentlyDue errors { code requirement reason } } }`,
		map[string]any{"id": id})
	for i, c := range list(g.Data["capabilities"]) {
		wc := obj(list(byID[id]["capabilities"])[i])
		require.Equal(t, wc["currentlyDue"], obj(c)["currentlyDue"])
		require.Equal(t, wc["errors"], obj(c)["errors"])
	}
}

// pageNodes are the nodes of the accounts connection in data.
func pageNodes(data map[string]any) []map[string]any {
	var out []map[string]any
	for _, e := range list(obj(data["accounts"])["edges"]) {
		out = append(out, obj(obj(e)["node"]))
	}
	return out
}

// Over a websocket every operation shares the loaders of the connection's
// one HTTP request, so an account a first operation read without its
// derived members must not be what a second one, selecting them, finds:
// there every read derives everything.
func TestAccountReadsOverAWebsocketDeriveEverything(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := str(f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))["id"])
	ctx := context.Background()
	opts := &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"},
		HTTPHeader: http.Header{"Authorization": {"Bearer " + f.env.Keys.Sandbox.Secret}}}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.env.Server.URL, "http")+"/graphql", opts)
	require.NoError(t, err)
	defer func() { _ = conn.CloseNow() }()
	require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{}}))
	var ack wsMessage
	require.NoError(t, wsjson.Read(ctx, conn, &ack))
	require.Equal(t, "connection_ack", ack.Type)

	// run sends one operation and returns its one result.
	run := func(opID, query string, vars map[string]any) map[string]any {
		require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"id": opID, "type": "subscribe",
			"payload": map[string]any{"query": query, "variables": vars}}))
		var next wsMessage
		require.NoError(t, wsjson.Read(ctx, conn, &next))
		require.Equal(t, "next", next.Type, string(next.Payload))
		var res struct {
			Data   map[string]any
			Errors []any
		}
		require.NoError(t, json.Unmarshal(next.Payload, &res))
		require.Empty(t, res.Errors)
		var done wsMessage
		require.NoError(t, wsjson.Read(ctx, conn, &done))
		require.Equal(t, "complete", done.Type)
		return res.Data
	}
	run("1", `{ accounts(first: 5) { edges { node { id capabilities { name } } } } }`, nil)
	a := obj(run("2", `query($id: ID!) { account(id: $id) { steps { key } capabilities { currentlyDue } } }`,
		map[string]any{"id": id})["account"])
	require.NotEmpty(t, list(a["steps"]))
	require.NotEmpty(t, list(obj(list(a["capabilities"])[0])["currentlyDue"]))
}
