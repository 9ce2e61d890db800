package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func docRef(documentType, fileID string) map[string]any {
	return map[string]any{"document_type": documentType, "file_id": fileID}
}

// The SDK's uploadDocuments names documents by reference in a JSON body:
// each fills its slot like a document sent as multipart, and the three
// slots filled, by references and files alike, turn the verification
// pending.
func TestCustomerIdentityUploadByReference(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	path := civPath + "/" + id(v) + "/upload_documents"

	front := merge(docRef("id_front", "file_front"), map[string]any{"metadata": map[string]any{"source": "scanner"}})
	r := f.sk.Post(path, map[string]any{"documents": []any{front, docRef("back", "file_back")}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "incomplete", r.JSON()["status"])
	require.Equal(t, civKeys, keys(r.JSON()))

	// A reference sent again replaces the one on file; a file completes it.
	r = f.sk.Post(path, map[string]any{"documents": []any{docRef("front", "file_front_2")}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = f.sk.Upload(path, nil, testenv.IdentityDocuments()[2])
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "pending", r.JSON()["status"])
	require.Equal(t, []string{"customer.identity_verification.created", "customer.identity_verification.updated",
		"customer.identity_verification.updated", "customer.identity_verification.updated"},
		eventTypes(listEvents(t, f.sk, ""), id(v)))

	// No longer incomplete: refused like a file.
	requireError(t, f.sk.Post(path, map[string]any{"documents": []any{docRef("selfie", "file_selfie")}}),
		http.StatusUnprocessableEntity, "invalid_state", "")
}

// Every problem of a JSON upload at once, under documents.<i>.<member>;
// nothing is recorded.
func TestCustomerIdentityUploadByReferenceRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := createCIV(t, f.sk, map[string]any{})
	path := civPath + "/" + id(v) + "/upload_documents"

	errs := requireValidation(t, f.sk.Post(path, map[string]any{"documents": []any{
		map[string]any{"document_type": "passport", "file_id": "f1", "metadata": map[string]any{"k": strings.Repeat("v", 101)}},
		map[string]any{"document_type": "selfie"},
		map[string]any{"file_id": strings.Repeat("x", 256)},
	}}), "documents.0.document_type", "documents.0.metadata.k", "documents.1.file_id", "documents.2.document_type",
		"documents.2.file_id")
	requireProblem(t, errs, "documents.0.document_type", `"passport" is not a document this endpoint takes: id_front, id_back or selfie`)
	requireProblem(t, errs, "documents.0.metadata.k", "must be at most 100 characters")
	requireValidation(t, f.sk.Post(path, map[string]any{"documents": []any{docRef("selfie", "a"), docRef("face", "b")}}),
		"documents.1.document_type")
	requireValidation(t, f.sk.Post(path, map[string]any{"documents": []any{docRef("selfie", "a"), docRef("id_front", "b"),
		docRef("id_back", "c"), docRef("selfie", "d")}}), "documents")
	requireValidation(t, f.sk.Post(path, map[string]any{}), "documents")
	requireError(t, f.sk.Post(path, map[string]any{"documents": "file_1"}), http.StatusBadRequest, "parameter_invalid", "documents")
	requireError(t, f.sk.Do(http.MethodPost, path, "{", http.Header{"Content-Type": {"application/json"}}),
		http.StatusBadRequest, "invalid_json", "")

	// The publishable key is refused before the body is read, as for files.
	requireError(t, f.pk.Post(path, map[string]any{"documents": []any{docRef("selfie", "a")}}),
		http.StatusForbidden, "forbidden", "")
	require.Equal(t, v, f.sk.Get(civPath+"/"+id(v)).JSON())
	require.Equal(t, []string{"customer.identity_verification.created"}, eventTypes(listEvents(t, f.sk, ""), id(v)))
}

// The same Idempotency-Key with other references is refused.
func TestCustomerIdentityUploadByReferenceIdempotency(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	path := civPath + "/" + id(v) + "/upload_documents"
	key := http.Header{"Idempotency-Key": {"ref-upload-1"}}
	body := map[string]any{"documents": []any{docRef("selfie", "file_a")}}
	first := f.sk.Do(http.MethodPost, path, body, key)
	require.Equal(t, http.StatusOK, first.Status, string(first.Body))
	again := f.sk.Do(http.MethodPost, path, body, key)
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	requireError(t, f.sk.Do(http.MethodPost, path, map[string]any{"documents": []any{docRef("selfie", "file_b")}}, key),
		http.StatusBadRequest, "idempotency_error", "Idempotency-Key")
}
