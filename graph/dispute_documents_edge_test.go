package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Dispute.documents is the dispute's evidence documents, in the order
// they were added, read with the dispute: a page of disputes with their
// documents costs the statements of the disputes alone.
func TestDisputeDocumentsEdge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	var docs []any
	for range 2 {
		tr := f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000))
		d := f.sk.OpenDispute(tr.LatestCharge.String(), "")
		docs = nil
		for _, file := range []string{"file_1", "file_2"} {
			doc := f.sk.CreateDisputeDocument(d.ID.String(), testenv.DisputeDocument(file))
			docs = append(docs, map[string]any{"id": doc.ID.String()})
		}
	}
	const q = `query($first: Int) { disputes(first: $first) { edges { node { id documents { id } evidence { documents { id } } } } } }`
	small := gql(t, f.sk, q, map[string]any{"first": 1})
	big := gql(t, f.sk, q, map[string]any{"first": 100})
	require.Equal(t, small.Statements, big.Statements, string(big.Raw))
	edges := list(obj(big.Data["disputes"])["edges"])
	require.Len(t, edges, 2)
	for _, e := range edges {
		n := obj(obj(e)["node"])
		require.Equal(t, obj(n["evidence"])["documents"], n["documents"])
	}
	require.Equal(t, docs, obj(obj(edges[0])["node"])["documents"], "the newest dispute's documents, oldest first")
}
