package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestAddDisputeDocumentGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	tr := f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000))
	d := f.sk.OpenDispute(tr.LatestCharge.String(), "")
	vars := map[string]any{"id": d.ID.String()}

	g := gql(t, f.sk, `mutation($id: ID!) { addDisputeDocument(id: $id, input: {fileId: "file_1", documentType: "receipt",
		metadata: {order: "42"}}) { id disputeId fileId documentType metadata livemode created } }`, vars)
	doc := obj(g.Data["addDisputeDocument"])
	require.Equal(t, d.ID.String(), doc["disputeId"])
	require.Equal(t, "file_1", doc["fileId"])
	require.Equal(t, "receipt", doc["documentType"])
	require.Equal(t, map[string]any{"order": "42"}, doc["metadata"])

	g = gql(t, f.sk, `query($id: ID!) { dispute(id: $id) { status evidence { documents { id fileId } } } }`, vars)
	require.Equal(t, map[string]any{"status": "NEEDS_RESPONSE", "evidence": map[string]any{
		"documents": []any{map[string]any{"id": doc["id"], "fileId": "file_1"}}}}, g.Data["dispute"])

	_, e := gqlError(t, f.pk, `mutation($id: ID!) { addDisputeDocument(id: $id, input: {fileId: "f"}) { id } }`, vars)
	require.Equal(t, "forbidden", code(e))
}
