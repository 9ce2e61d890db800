package graph_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const endpointFields = `id url status description eventCodes secret livemode created updated`

const createEndpointMutation = `mutation($input: CreateWebhookEndpointInput!) {
	createWebhookEndpoint(input: $input) {` + endpointFields + `}
}`

func TestWebhookEndpointsThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.sk, createEndpointMutation, map[string]any{"input": map[string]any{
		"url": "http://localhost:4242/h", "eventCodes": []string{"account.created"}, "description": "dash"}})
	ep := obj(g.Data["createWebhookEndpoint"])
	require.Regexp(t, `^whsec_[0-9a-f]{32}$`, ep["secret"], "shown on create")
	require.Equal(t, "ACTIVE", ep["status"])
	require.Equal(t, []any{"account.created"}, ep["eventCodes"])

	// The same rules as REST: an unknown code is a 400 parameter_invalid.
	_, e := gqlError(t, f.sk, createEndpointMutation, map[string]any{"input": map[string]any{
		"url": "http://localhost/h", "eventCodes": []string{"nope"}}})
	require.Equal(t, "parameter_invalid", code(e))
	require.Equal(t, http.StatusBadRequest, status(e))

	read := gql(t, f.sk, `query($id: ID!) { webhookEndpoint(id: $id) { `+endpointFields+` } node(id: $id) { id } }`,
		map[string]any{"id": ep["id"]})
	require.Nil(t, obj(read.Data["webhookEndpoint"])["secret"], "never on read")
	require.Equal(t, ep["id"], obj(read.Data["node"])["id"])

	upd := gql(t, f.sk, `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {status: DISABLED, eventCodes: ["*"]}) { status eventCodes secret } }`,
		map[string]any{"id": ep["id"]})
	require.Equal(t, map[string]any{"status": "DISABLED", "eventCodes": []any{"*"}, "secret": nil}, upd.Data["updateWebhookEndpoint"])
	rot := gql(t, f.sk, `mutation($id: ID!) { rotateWebhookSecret(id: $id, input: {gracePeriodSeconds: 60}) { secret } }`,
		map[string]any{"id": ep["id"]})
	require.NotEqual(t, ep["secret"], obj(rot.Data["rotateWebhookSecret"])["secret"])

	conn := gql(t, f.sk, `{ webhookEndpoints(first: 5) { edges { node { id } } pageInfo { hasNextPage } } }`, nil)
	require.Len(t, list(obj(conn.Data["webhookEndpoints"])["edges"]), 1)
	_, e = gqlError(t, f.pk, `{ webhookEndpoints { edges { node { id } } } }`, nil)
	require.Equal(t, "forbidden", code(e))

	del := gql(t, f.sk, `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id deleted } }`, map[string]any{"id": ep["id"]})
	require.Equal(t, map[string]any{"id": ep["id"], "deleted": true}, del.Data["deleteWebhookEndpoint"])
	gone := gql(t, f.sk, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": ep["id"]})
	require.Nil(t, gone.Data["node"])
}

const deliveriesQuery = `query($ep: ID!) { webhookDeliveries(endpointId: $ep, first: 50) {
	edges { node { id eventType status attemptCount lastStatusCode lastError nextAttempt livemode created updated
		attempts { id attempt url statusCode error latencyMs responseExcerpt created }
		endpoint { id url eventCodes }
		event { id type data } } }
	pageInfo { hasNextPage } } }`

func TestWebhookDeliveriesThroughGraphQLLoadInConstantStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost:4242/h", "*")).ID.String()

	f.sk.CreateAccount(testenv.Individual())
	one := gql(t, f.sk, deliveriesQuery, map[string]any{"ep": ep})
	edges := list(obj(one.Data["webhookDeliveries"])["edges"])
	require.Len(t, edges, 1, "the event queued a delivery in its own transaction")
	d := obj(obj(edges[0])["node"])
	require.Equal(t, "PENDING", d["status"])
	require.Equal(t, "account.created", d["eventType"])
	require.Equal(t, ep, obj(d["endpoint"])["id"])
	require.Equal(t, "account.created", obj(d["event"])["type"])
	require.Empty(t, d["attempts"])

	for range 4 {
		f.sk.CreateAccount(testenv.Individual())
	}
	five := gql(t, f.sk, deliveriesQuery, map[string]any{"ep": ep})
	require.Len(t, list(obj(five.Data["webhookDeliveries"])["edges"]), 5)
	require.Equal(t, one.Statements, five.Statements, "endpoints and events load through loaders")
	require.Equal(t, 5, five.Statements, "the same five statements for one delivery or five")

	byID := gql(t, f.sk, `query($id: ID!) { webhookDelivery(id: $id) { id } node(id: $id) { id } }`, map[string]any{"id": d["id"]})
	require.Equal(t, d["id"], obj(byID.Data["webhookDelivery"])["id"])
	require.Equal(t, d["id"], obj(byID.Data["node"])["id"])

	other, e := gqlError(t, f.live, `query($id: ID!) { webhookDelivery(id: $id) { id } }`, map[string]any{"id": d["id"]})
	require.Nil(t, other.Data["webhookDelivery"], "another mode's delivery is missing")
	require.Equal(t, "resource_missing", code(e))
}

func TestResendEventThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost:4242/h", "account.created")).ID.String()
	f.sk.CreateAccount(testenv.Individual())
	ev := obj(list(obj(gql(t, f.sk, `{ events(first: 1) { edges { node { id } } } }`, nil).Data["events"])["edges"])[0])["node"]
	g := gql(t, f.sk, `mutation($id: ID!) { resendEvent(id: $id) { id type } }`, map[string]any{"id": obj(ev)["id"]})
	require.Equal(t, obj(ev)["id"], obj(g.Data["resendEvent"])["id"])
	ds := gql(t, f.sk, deliveriesQuery, map[string]any{"ep": ep})
	require.Len(t, list(obj(ds.Data["webhookDeliveries"])["edges"]), 2)
}
