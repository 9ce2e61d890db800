package rest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// civJobs counts the judgement jobs of customer identity verifications
// in state ("" for any).
func civJobs(t *testing.T, f *fixture, state string) int {
	t.Helper()
	var n int
	q := "SELECT count(*) FROM river_job WHERE kind = 'customer_identity_verification.conclude'"
	if state != "" {
		q += " AND state = '" + state + "'"
	}
	require.NoError(t, f.env.DB.Bun.NewRaw(q).Scan(t.Context(), &n))
	return n
}

func TestCustomerIdentityReviewStaysPending(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{PhoneNumber: "+1 (200) 100-3003"})
	require.Equal(t, http.StatusOK, uploadDocs(f.sk, id(v), testenv.IdentityDocuments()...).Status)
	f.env.AwaitJobs(func() bool { return civJobs(t, f, "completed") == 1 })
	got := f.sk.Get(civPath + "/" + id(v)).JSON()
	require.Equal(t, "pending", got["status"])
	require.Equal(t, float64(0), got["verified"])
	require.Equal(t, float64(0), got["failed"])
	require.Equal(t, []string{"customer.identity_verification.created", "customer.identity_verification.updated"},
		eventTypes(listEvents(t, f.sk, ""), id(v)), "a review opening announces nothing")
}

func TestCustomerIdentityDocumentRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{Email: "ada@example.com"})
	path := civPath + "/" + id(v) + "/upload_documents"
	up := func(parts ...testenv.Part) *testenv.Response { return f.sk.Upload(path, nil, parts...) }

	// Every problem of a request at once.
	errs := requireValidation(t, up(
		testenv.Part{Field: "id_front", FileName: "a.gif", ContentType: "image/gif", Body: []byte("GIF89a....")},
		testenv.Part{Field: "selfie", FileName: "s.pdf", ContentType: "application/pdf", Body: testenv.PDF},
		testenv.Part{Field: "passport", FileName: "p.jpg", ContentType: "image/jpeg", Body: testenv.JPEG},
	), "id_front", "selfie", "documents")
	requireProblem(t, errs, "id_front", "must be a JPEG or PNG image (or a PDF for the ID's sides)")
	requireProblem(t, errs, "selfie", "must be a JPEG or PNG image: a selfie cannot be a PDF")
	require.Contains(t, errs["documents"].([]any)[0], `"passport" is not a document`)

	// Declared type against content, empty files, one slot twice (under two names).
	errs = requireValidation(t, up(
		testenv.Part{Field: "front", FileName: "f.png", ContentType: "image/png", Body: testenv.JPEG},
		testenv.Part{Field: "id_back", FileName: "b.jpg", ContentType: "image/jpeg"},
		testenv.Part{Field: "id_front", FileName: "f.jpg", ContentType: "image/jpeg", Body: testenv.JPEG},
	), "front", "id_back", "id_front")
	requireProblem(t, errs, "front", "holds image/jpeg content, not the \"image/png\" it declares")
	requireProblem(t, errs, "id_back", "is empty")
	requireProblem(t, errs, "id_front", "names a document already sent in this request")

	// No document, or more than three.
	requireValidation(t, f.sk.Do(http.MethodPost, path, "--b--\r\n", http.Header{"Content-Type": {"multipart/form-data; boundary=b"}}), "documents")
	four := append(testenv.IdentityDocuments(), testenv.Part{Field: "selfie", Body: testenv.PNG})
	requireValidation(t, up(four...), "documents")

	// A document over 10 MiB is refused without being read further.
	big := append(append([]byte{}, testenv.JPEG...), bytes.Repeat([]byte{0}, models.MaxDocumentBytes)...)
	errs = requireValidation(t, up(testenv.Part{Field: "selfie", FileName: "s.jpg", ContentType: "image/jpeg", Body: big}), "selfie")
	requireProblem(t, errs, "selfie", "must be at most 10 MiB")

	// Accepted: no declared type, octet-stream, image/jpg, parameters; names the real service's clients use.
	r := up(testenv.Part{Field: "drivers_license_front", Body: testenv.JPEG},
		testenv.Part{Field: "document_back", ContentType: "application/octet-stream", Body: testenv.PNG})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "incomplete", r.JSON()["status"])
	// A document sent again replaces the one on file.
	r = up(testenv.Part{Field: "back", ContentType: "image/jpg; q=1", Body: testenv.JPEG})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "incomplete", r.JSON()["status"])

	// Submit names what is missing; the selfie completes it.
	errs = requireValidation(t, f.sk.Post(civPath+"/"+id(v)+"/submit", nil), "documents")
	requireProblem(t, errs, "documents", "are incomplete: upload selfie first")
	r = up(testenv.Part{Field: "selfie", FileName: "me.png", ContentType: "image/png", Body: testenv.PNG})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	pending := r.JSON()
	require.Equal(t, "pending", pending["status"])
	require.Equal(t, 1, civJobs(t, f, ""), "its judgement is enqueued with it")

	// Pending: no more documents; submit answers it unchanged.
	requireError(t, up(testenv.IdentityDocuments()...), http.StatusUnprocessableEntity, "invalid_state", "")
	r = f.sk.Post(civPath+"/"+id(v)+"/submit", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, pending, r.JSON())
	require.Equal(t, 1, civJobs(t, f, ""))

	// Refused uploads recorded nothing: three accepted ones, three events.
	require.Equal(t, []string{"customer.identity_verification.created", "customer.identity_verification.updated",
		"customer.identity_verification.updated", "customer.identity_verification.updated"},
		eventTypes(listEvents(t, f.sk, ""), id(v)))
	requireError(t, f.sk.Upload(civPath+"/0195a1c0-0000-7000-8000-00000000dead/upload_documents", nil, testenv.IdentityDocuments()...),
		http.StatusNotFound, "resource_missing", "id")
}

func TestCustomerIdentityUploadHostileBodies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := createCIV(t, f.sk, map[string]any{})
	path := civPath + "/" + id(v) + "/upload_documents"
	multipartType := http.Header{"Content-Type": {"multipart/form-data; boundary=XYZ"}}

	// Neither multipart nor JSON, no boundary, broken framing, a truncated part.
	requireError(t, f.sk.Do(http.MethodPost, path, "front=file_1", http.Header{"Content-Type": {"text/plain"}}),
		http.StatusUnsupportedMediaType, "unsupported_media_type", "")
	requireError(t, f.sk.Do(http.MethodPost, path, "x", http.Header{"Content-Type": {"multipart/form-data"}}),
		http.StatusBadRequest, "invalid_multipart", "")
	requireError(t, f.sk.Do(http.MethodPost, path, "no boundary anywhere", multipartType),
		http.StatusBadRequest, "invalid_multipart", "")
	truncated := "--XYZ\r\nContent-Disposition: form-data; name=\"selfie\"\r\n\r\n\xFF\xD8\xFF\xE0 and then nothing"
	requireError(t, f.sk.Do(http.MethodPost, path, truncated, multipartType), http.StatusBadRequest, "invalid_multipart", "")
	requireError(t, f.sk.Do(http.MethodPost, path, "--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n", multipartType),
		http.StatusBadRequest, "invalid_multipart", "")

	// Over the whole-body limit: refused from its Content-Length, or while streaming.
	huge := bytes.Repeat([]byte{'a'}, models.MaxUploadBytes+1)
	requireError(t, f.sk.Do(http.MethodPost, path, huge, multipartType), http.StatusBadRequest, "request_too_large", "")
	stream := io.MultiReader(strings.NewReader("--XYZ\r\nContent-Disposition: form-data; name=\"selfie\"\r\n\r\n"),
		bytes.NewReader(huge))
	requireError(t, f.sk.Do(http.MethodPost, path, stream, multipartType), http.StatusBadRequest, "request_too_large", "")

	// A caller that may not upload is refused before its body is read.
	src := &countingReader{r: io.MultiReader(strings.NewReader("--XYZ\r\nContent-Disposition: form-data; name=\"selfie\"\r\n\r\n"),
		bytes.NewReader(huge))}
	requireError(t, f.pk.Do(http.MethodPost, path, src, multipartType), http.StatusForbidden, "forbidden", "")
	require.Less(t, src.n.Load(), int64(models.MaxUploadBytes/2), "the body was not read to its end")

	// Thousands of tiny parts: only the first three are read.
	var many strings.Builder
	for range 5000 {
		many.WriteString("--XYZ\r\nContent-Disposition: form-data; name=\"selfie\"\r\n\r\nx\r\n")
	}
	many.WriteString("--XYZ--\r\n")
	requireValidation(t, f.sk.Do(http.MethodPost, path, many.String(), multipartType), "selfie", "documents")

	// A hostile field name is echoed as an excerpt at most; one with
	// control characters is not a valid part header.
	r := f.sk.Upload(path, nil, testenv.Part{Field: strings.Repeat("x", 5000) + "END", Body: testenv.JPEG})
	errs := requireValidation(t, r, "documents")
	require.NotContains(t, string(r.Body), "END")
	require.Less(t, len(r.Body), 1000)
	require.Contains(t, errs["documents"].([]any)[0], `"xxxxxxxxxx`)
	requireError(t, f.sk.Upload(path, nil, testenv.Part{Field: "\x01selfie", Body: testenv.JPEG}),
		http.StatusBadRequest, "invalid_multipart", "")

	// Nothing was recorded.
	require.Equal(t, v, f.sk.Get(civPath+"/"+id(v)).JSON())
	require.Equal(t, []string{"customer.identity_verification.created"}, eventTypes(listEvents(t, f.sk, ""), id(v)))
}

func TestCustomerIdentityUploadIdempotency(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	path := civPath + "/" + id(v) + "/upload_documents"
	key := http.Header{"Idempotency-Key": {"upload-1"}}
	first := f.sk.Upload(path, key, testenv.IdentityDocuments()[0])
	require.Equal(t, http.StatusOK, first.Status, string(first.Body))
	again := f.sk.Upload(path, key, testenv.IdentityDocuments()[0])
	require.Equal(t, http.StatusOK, again.Status, string(again.Body))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.Equal(t, first.JSON(), again.JSON())
	other := testenv.Part{Field: "id_front", ContentType: "image/png", Body: testenv.PNG}
	requireError(t, f.sk.Upload(path, key, other), http.StatusBadRequest, "idempotency_error", "Idempotency-Key")
	require.Len(t, eventTypes(listEvents(t, f.sk, ""), id(v)), 2, "created, and one upload")
}

// Uploads of one verification race on its documents and on the move to
// pending: the row lock makes each see what the others recorded, so the
// three documents sent at once all count and exactly one upload turns it
// pending (one event, one judgement).
func TestCustomerIdentityConcurrentUploads(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for round := range 3 {
		v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
		var wg sync.WaitGroup
		statuses := make([]int, 3)
		for i, part := range testenv.IdentityDocuments() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = uploadDocs(f.sk, id(v), part).Status
			}()
		}
		wg.Wait()
		require.Equal(t, []int{200, 200, 200}, statuses)
		require.Equal(t, "pending", f.sk.Get(civPath + "/" + id(v)).JSON()["status"], "round %d", round)
	}
	require.Equal(t, 3, civJobs(t, f, ""), "one judgement per verification")

	// The whole set sent at once by several requests: one wins, the others
	// find it pending.
	v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	const n = 6
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = uploadDocs(f.sk, id(v), testenv.IdentityDocuments()...).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		require.Contains(t, []int{200, 422}, s)
		if s == 200 {
			ok++
		}
	}
	require.Equal(t, 1, ok)
	require.Equal(t, 4, civJobs(t, f, ""))
	pendingEvents := 0
	for _, e := range listEvents(t, f.sk, "customer.identity_verification.updated") {
		if e.object()["id"] == id(v) && e.object()["status"] == "pending" {
			pendingEvents++
		}
	}
	require.Equal(t, 1, pendingEvents)
}

// countingReader counts what was read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
