package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

const civPath = "/v1/customer_identity_verifications"

var civKeys = sorted("id", "object", "type", "status", "verification_url", "customer_id", "created", "updated",
	"pending", "verified", "failed", "livemode")

func createCIV(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post(civPath, body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

func uploadDocs(c *testenv.Client, civID string, parts ...testenv.Part) *testenv.Response {
	return c.Upload(civPath+"/"+civID+"/upload_documents", nil, parts...)
}

// awaitCIV reads a verification once its judgement has run (it is no
// longer pending): again each time the job engine finishes a job, with no
// deadline of its own.
func awaitCIV(t *testing.T, f *fixture, civID string) map[string]any {
	t.Helper()
	var v map[string]any
	f.env.AwaitJobs(func() bool {
		v = f.sk.Get(civPath + "/" + civID).JSON()
		return v["status"] != "pending"
	})
	return v
}

func TestCustomerIdentityVerificationFromFieldsToVerified(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	v := createCIV(t, f.sk, map[string]any{"first_name": "Ada", "last_name": "Lovelace", "date_of_birth": "1915-12-10",
		"email": "ada@example.com", "phone_number": "+1 (415) 555-0100", "ssn": "123-45-6789"})
	require.Equal(t, civKeys, keys(v))
	require.Equal(t, "customer_identity_verification", v["object"])
	require.Equal(t, "incomplete", v["status"])
	require.Equal(t, false, v["livemode"])
	require.Nil(t, v["customer_id"])
	require.True(t, strings.HasPrefix(v["verification_url"].(string), "https://"), v["verification_url"])
	created := requireInt(t, v["created"], "created")
	requireInt(t, v["updated"], "updated")
	for _, k := range []string{"pending", "verified", "failed"} {
		require.Equal(t, int64(0), requireInt(t, v[k], k), k)
	}
	require.NotContains(t, string(f.sk.Get(civPath+"/"+id(v)).Body), "6789", "the SSN is never returned")
	require.Equal(t, v, f.sk.Get(civPath+"/"+id(v)).JSON())

	// The ID's front alone: still incomplete.
	r := uploadDocs(f.sk, id(v), testenv.IdentityDocuments()[0])
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "incomplete", r.JSON()["status"])
	require.Equal(t, int64(0), requireInt(t, r.JSON()["pending"], "pending"))

	// The back and the selfie complete it: pending, then verified.
	f.env.Clock.Advance(2 * time.Second)
	r = uploadDocs(f.sk, id(v), testenv.IdentityDocuments()[1:]...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	pending := r.JSON()
	require.Equal(t, "pending", pending["status"])
	require.Greater(t, requireInt(t, pending["pending"], "pending"), created)
	done := awaitCIV(t, f, id(v))
	require.Equal(t, "verified", done["status"])
	require.GreaterOrEqual(t, requireInt(t, done["verified"], "verified"), requireInt(t, pending["pending"], "pending"))
	require.Equal(t, int64(0), requireInt(t, done["failed"], "failed"))
	require.Equal(t, pending["pending"], done["pending"], "the time pending was reached stays")

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"customer.identity_verification.created", "customer.identity_verification.updated",
		"customer.identity_verification.updated", "customer.identity_verification.updated"}, eventTypes(evs, id(v)))
	var statuses []any
	for _, e := range evs {
		require.False(t, strings.HasPrefix(e.Type, "account."), "never an account event: %s", e.Type)
		if e.object()["id"] == id(v) {
			statuses = append(statuses, e.object()["status"])
		}
	}
	require.Equal(t, []any{"incomplete", "incomplete", "pending", "verified"}, statuses)
	last := evs[len(evs)-1]
	require.Equal(t, map[string]any{"status": "pending", "verified": float64(0)}, last.previous())
}

func TestCustomerIdentityVerificationSandboxOutcomes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	cases := []struct{ phone, want string }{
		{"(774) 234-5678", "failed"},     // ten digits: a US number
		{"1-200-100-3002", "failed"},     // eleven digits with the calling code
		{"+1 200 100 1691", "failed"},    //
		{"2001001695", "verified"},       //
		{"+1 (200) 100-3003", "pending"}, // a manual review the sandbox never resolves
	}
	for i, c := range cases {
		v := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{PhoneNumber: c.phone})
		r := uploadDocs(f.sk, id(v), testenv.IdentityDocuments()...)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		if c.want == "pending" {
			// Its judgement has run (one per verification so far) and left it pending.
			f.env.AwaitJobs(func() bool { return civJobs(t, f, "completed") == i+1 })
			got := f.sk.Get(civPath + "/" + id(v)).JSON()
			require.Equal(t, "pending", got["status"], c.phone)
			continue
		}
		got := awaitCIV(t, f, id(v))
		require.Equal(t, c.want, got["status"], c.phone)
		if c.want == "failed" {
			requireInt(t, got["failed"], "failed")
			require.Equal(t, float64(0), got["verified"])
		}
	}

	// A customer's verification judges the customer's phone.
	cu := f.sk.CreateCustomer(testenv.CustomerSpec{Email: "payer@example.com", Phone: "+12001003001"})
	r := f.sk.Post(civPath+"/"+id(cu), nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	v := r.JSON()
	require.Equal(t, id(cu), v["customer_id"])
	require.Equal(t, http.StatusOK, uploadDocs(f.sk, id(v), testenv.IdentityDocuments()...).Status)
	require.Equal(t, "failed", awaitCIV(t, f, id(v))["status"])
}

func TestCustomerIdentityVerificationValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	errs := requireValidation(t, f.sk.Post(civPath, map[string]any{"first_name": " ", "date_of_birth": "1990-13-01",
		"email": "not-an-email", "phone_number": "555-0100", "ssn": "123-456-789"}),
		"first_name", "date_of_birth", "email", "phone_number", "ssn")
	requireProblem(t, errs, "phone_number", "must have 10 or 11 digits")
	requireProblem(t, errs, "ssn", "must be XXX-XX-XXXX or 10 digits")
	requireProblem(t, errs, "email", "is invalid")

	requireValidation(t, f.sk.Post(civPath, map[string]any{"phone_number": "+44 20 7946 0958 12"}), "phone_number")
	requireValidation(t, f.sk.Post(civPath, map[string]any{"date_of_birth": "2999-01-01"}), "date_of_birth")
	requireValidation(t, f.sk.Post(civPath, map[string]any{"last_name": strings.Repeat("x", 101)}), "last_name")
	requireValidation(t, f.sk.Post(civPath, map[string]any{"first_name": "a\x00b"}), "first_name")

	// customer_id excludes the profile fields, reported with the others.
	cu := f.sk.CreateCustomer(testenv.Customer())
	errs = requireValidation(t, f.sk.Post(civPath, map[string]any{"customer_id": id(cu), "first_name": "Ada",
		"email": "bad"}), "customer_id", "email")
	require.Contains(t, errs["customer_id"].([]any)[0], "first_name, email")

	// Wrong JSON types and unreadable bodies.
	requireError(t, f.sk.Post(civPath, map[string]any{"ssn": 123456789}), http.StatusBadRequest, "parameter_invalid", "ssn")
	requireError(t, f.sk.Post(civPath, "{"), http.StatusBadRequest, "invalid_json", "")

	// The accepted forms: ten digits of SSN, punctuation in phones, nothing at all.
	for _, body := range []map[string]any{
		{"ssn": "1234567890", "phone_number": "12001001695"},
		{"ssn": "123-45-6789", "phone_number": "(200) 100-1695", "email": "a@b.co", "date_of_birth": "1990-01-31"},
		{},
	} {
		createCIV(t, f.sk, body)
	}
	require.Equal(t, 3, countType(listEvents(t, f.sk, ""), "customer.identity_verification.created"),
		"refused requests created nothing")
}

func TestCustomerIdentityVerificationOfACustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	v := createCIV(t, f.sk, map[string]any{"customer_id": id(cu)})
	require.Equal(t, id(cu), v["customer_id"])
	r := f.sk.Post(civPath+"/"+id(cu), nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, id(cu), r.JSON()["customer_id"])
	require.NotEqual(t, id(v), id(r.JSON()))

	// Unknown, malformed, another merchant's or another mode's customer: 404.
	_, otherKeys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	theirs := f.env.Client(otherKeys.Sandbox.Secret).CreateCustomer(testenv.Customer())
	liveCu := f.live.CreateCustomer(testenv.Customer())
	for _, cid := range []string{"0195a1c0-0000-7000-8000-00000000dead", "nope", id(theirs), id(liveCu)} {
		requireError(t, f.sk.Post(civPath, map[string]any{"customer_id": cid}), http.StatusNotFound, "resource_missing", "customer_id")
		requireError(t, f.sk.Post(civPath+"/"+cid, nil), http.StatusNotFound, "resource_missing", "customer_id")
	}

	// A deleted customer cannot be verified.
	gone := f.sk.CreateCustomer(testenv.Customer())
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(gone)).Status)
	requireError(t, f.sk.Post(civPath+"/"+id(gone), nil), http.StatusUnprocessableEntity, "invalid_state", "")
}

func TestCustomerIdentityVerificationCredentialsAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	v := createCIV(t, f.sk, map[string]any{"email": "ada@example.com"})
	cu := f.sk.CreateCustomer(testenv.Customer())
	acct := f.sk.CreateAccount(testenv.Individual())
	holder := f.sk.OnboardingHolder(id(acct))
	anonymous := f.env.Client("")
	docs := testenv.IdentityDocuments()

	for _, c := range []*testenv.Client{f.pk, holder} {
		requireError(t, c.Post(civPath, map[string]any{}), http.StatusForbidden, "forbidden", "")
		requireError(t, c.Get(civPath+"/"+id(v)), http.StatusForbidden, "forbidden", "")
		requireError(t, c.Post(civPath+"/"+id(cu), nil), http.StatusForbidden, "forbidden", "")
		requireError(t, uploadDocs(c, id(v), docs...), http.StatusForbidden, "forbidden", "")
		requireError(t, c.Post(civPath+"/"+id(v)+"/submit", nil), http.StatusForbidden, "forbidden", "")
	}
	requireError(t, anonymous.Get(civPath+"/"+id(v)), http.StatusUnauthorized, "authentication_required", "")
	requireError(t, uploadDocs(anonymous, id(v), docs...), http.StatusUnauthorized, "authentication_required", "")
	requireError(t, f.env.Client("sk_sandbox_wrong").Get(civPath+"/"+id(v)), http.StatusUnauthorized, "invalid_api_key", "")

	// Another merchant, or the other mode, sees nothing.
	_, otherKeys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	other := f.env.Client(otherKeys.Sandbox.Secret)
	for _, c := range []*testenv.Client{other, f.live} {
		requireError(t, c.Get(civPath+"/"+id(v)), http.StatusNotFound, "resource_missing", "id")
	}
	requireError(t, other.Post(civPath+"/"+id(v)+"/submit", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, uploadDocs(other, id(v), docs...), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get(civPath+"/not-a-uuid"), http.StatusNotFound, "resource_missing", "id")

	// Live mode has no identity provider.
	requireError(t, f.live.Post(civPath, map[string]any{"email": "ada@example.com"}), http.StatusServiceUnavailable, "provider_not_configured", "")
	liveCu := f.live.CreateCustomer(testenv.Customer())
	requireError(t, f.live.Post(civPath+"/"+id(liveCu), nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	// A write on a verification answers it before looking the object up:
	// none can exist in live mode. Reads still answer 404.
	requireError(t, uploadDocs(f.live, id(v), docs...), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.live.Post(civPath+"/"+id(v)+"/submit", nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	// The missing provider is answered before the input is checked.
	requireError(t, f.live.Post(civPath, map[string]any{"email": "bad"}), http.StatusServiceUnavailable, "provider_not_configured", "")

	// The untouched verification is as it was.
	require.Equal(t, v, f.sk.Get(civPath+"/"+id(v)).JSON())
}
