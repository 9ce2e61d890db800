package rest_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// POST /v1/disputes/{id}/documents (the SDK's disputes.createDocument):
// the document joins the evidence, without submitting it.
func TestDisputeDocuments(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	d := f.sk.OpenDispute(tr.LatestCharge.String(), "")
	path := "/v1/disputes/" + id(d) + "/documents"

	r := f.sk.Post(path, map[string]any{"file_id": "file_receipt_1", "document_type": "receipt", "metadata": map[string]any{"order": "42"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	doc := r.JSON()
	require.Equal(t, sorted("id", "object", "dispute_id", "file_id", "document_type", "metadata", "created", "livemode"), keys(doc))
	require.Equal(t, "dispute_document", doc["object"])
	require.Equal(t, id(d), doc["dispute_id"])
	require.Equal(t, "file_receipt_1", doc["file_id"])
	require.Equal(t, "receipt", doc["document_type"])
	require.Equal(t, map[string]any{"order": "42"}, doc["metadata"])
	require.Equal(t, false, doc["livemode"])
	requireInt(t, doc["created"], "created")

	// Kept in the evidence, oldest first; the dispute is not submitted.
	r = f.sk.Post(path, map[string]any{"file_id": "file_log_2"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["document_type"])
	got := f.sk.Get("/v1/disputes/" + id(d)).JSON()
	require.Equal(t, "needs_response", got["status"])
	docs := got["evidence"].(map[string]any)["documents"].([]any)
	require.Len(t, docs, 2)
	require.Equal(t, doc, docs[0])
	require.Equal(t, "file_log_2", docs[1].(map[string]any)["file_id"])
	updated := listEvents(t, f.sk, "charge.dispute.updated")
	require.Len(t, updated, 2)
	require.Contains(t, updated[0].previous(), "evidence")

	// A PATCH keeps the documents and cannot write them.
	requireValidation(t, f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": map[string]any{"documents": []any{}}}), "evidence.documents")
	r = f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": map[string]any{"uncategorized_text": "see the receipt"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, r.JSON()["evidence"].(map[string]any)["documents"], 2)

	// Submitted: no more evidence, documents included.
	requireError(t, f.sk.Post(path, map[string]any{"file_id": "late"}), http.StatusUnprocessableEntity, "invalid_state", "")
}

func TestDisputeDocumentRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	d := f.sk.OpenDispute(tr.LatestCharge.String(), "")
	path := "/v1/disputes/" + id(d) + "/documents"

	errs := requireValidation(t, f.sk.Post(path, map[string]any{"document_type": "", "metadata": map[string]any{"": "x"}}),
		"file_id", "metadata")
	requireProblem(t, errs, "file_id", "is required")
	requireError(t, f.sk.Post(path, map[string]any{"file_id": 7}), http.StatusBadRequest, "parameter_invalid", "file_id")
	requireError(t, f.pk.Post(path, map[string]any{"file_id": "f"}), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Post("/v1/disputes/"+uuid.NewString()+"/documents", map[string]any{"file_id": "f"}),
		http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post(path, map[string]any{"file_id": "f"}), http.StatusNotFound, "resource_missing", "id")
	require.Nil(t, f.sk.Get("/v1/disputes/" + id(d)).JSON()["evidence"].(map[string]any)["documents"])
}
