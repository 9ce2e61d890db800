package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// A customer's onboarding session, as the SDK's OnboardingAPI opens it:
// customer_id, entry_point, metadata; the steps object; its own secret,
// which reads its session and nothing else; one active session per
// customer; progress reported by an update; ended by an update.
func TestOnboardingCustomerSession(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())

	r := f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust), "entry_point": "checkout",
		"metadata": map[string]any{"order": "42"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	first := r.JSON()
	require.Equal(t, sdkSessionKeys, keys(first))
	require.Equal(t, id(cust), first["customer_id"])
	require.Nil(t, first["account_id"])
	require.Equal(t, "checkout", first["entry_point"])
	require.Equal(t, map[string]any{"order": "42"}, first["metadata"])
	require.Equal(t, "active", first["status"])
	require.Equal(t, map[string]any{"id_verification": map[string]any{"status": "pending"},
		"payment_method": map[string]any{"status": "pending"}}, first["steps"])
	require.JSONEq(t, `{"id_verification":{"status":"pending"},"payment_method":{"status":"pending"}}`,
		stepsJSON(t, r.Body), "steps list in the session's order")
	require.Regexp(t, `^onb_sess_`, first["client_secret"])
	require.Equal(t, float64(testenv.Start.Unix()), first["created_at"])
	require.Equal(t, first["client_secret"], f.sk.Get("/v1/onboarding/sessions/" + id(first)).JSON()["client_secret"],
		"the secret key reads the live secret again, as an account session's")

	// The customer's secret reads its own session, and nothing else.
	holder := f.env.Client(first["client_secret"].(string))
	own := holder.Get("/v1/onboarding/sessions/" + id(first))
	require.Equal(t, http.StatusOK, own.Status, string(own.Body))
	require.Nil(t, own.JSON()["client_secret"], "only the secret key is shown a secret")
	acct := f.sk.CreateAccount(testenv.Individual())
	requireError(t, holder.Get("/v1/accounts/"+id(acct)), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Get("/v1/onboarding_sessions/bootstrap"), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Get("/v1/onboarding/sessions"), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust)}),
		http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Patch("/v1/onboarding/sessions/"+id(first), map[string]any{"status": "expired"}),
		http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Get("/v1/customers/"+id(cust)), http.StatusForbidden, "forbidden", "")

	// A second session replaces the first at once: its secret stops working.
	second := f.sk.CreateSDKOnboardingSession(testenv.CustomerOnboardingSession(id(cust)))
	requireError(t, holder.Get("/v1/onboarding/sessions/"+id(first)), http.StatusUnauthorized, "invalid_client_secret", "")
	requireError(t, f.env.Client(*second.ClientSecret).Get("/v1/onboarding/sessions/"+id(first)),
		http.StatusNotFound, "resource_missing", "id")
	list := f.sk.Get("/v1/onboarding/sessions?customer_id=" + id(cust)).JSON()["data"].([]any)
	require.Len(t, list, 2)
	require.Equal(t, second.ID.String(), id(list[0].(map[string]any)))
	require.Equal(t, "expired", list[1].(map[string]any)["status"])
	require.Empty(t, f.sk.Get("/v1/onboarding/sessions?customer_id=" + id(cust) + "&account_id=" + id(acct)).JSON()["data"])

	// Progress: a step of the session completed, then undone; a step it
	// does not have is refused, and nothing changes.
	path := "/v1/onboarding/sessions/" + second.ID.String()
	r = f.sk.Patch(path, map[string]any{"steps": map[string]any{"payment_method": map[string]any{"status": "completed"}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"status": "completed"}, r.JSON()["steps"].(map[string]any)["payment_method"])
	require.Equal(t, map[string]any{"status": "pending"}, r.JSON()["steps"].(map[string]any)["id_verification"])
	requireValidation(t, f.sk.Patch(path, map[string]any{"steps": map[string]any{
		"geo_compliance": map[string]any{"status": "completed"}, "id_verification": map[string]any{"status": "completed"}}}),
		"steps.geo_compliance")
	got := f.sk.Get(path).JSON()["steps"].(map[string]any)
	require.Equal(t, map[string]any{"status": "completed"}, got["payment_method"])
	require.Equal(t, map[string]any{"status": "pending"}, got["id_verification"], "a refused update changed nothing")

	// The payout step is an account's.
	requireError(t, f.sk.Post(path+"/payout", map[string]any{"payout_method_id": id(cust)}),
		http.StatusUnprocessableEntity, "invalid_state", "")

	// Ending it: its secret stops working; progress on it is refused.
	secondHolder := f.env.Client(*second.ClientSecret)
	require.Equal(t, http.StatusOK, secondHolder.Get(path).Status)
	r = f.sk.Patch(path, map[string]any{"status": "expired"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "expired", r.JSON()["status"])
	requireError(t, secondHolder.Get(path), http.StatusUnauthorized, "invalid_client_secret", "")
	requireError(t, f.sk.Patch(path, map[string]any{"steps": map[string]any{"payment_method": map[string]any{"status": "pending"}}}),
		http.StatusUnprocessableEntity, "invalid_state", "")

	// The spec's route opens account sessions only.
	requireError(t, f.sk.Post("/v1/onboarding_sessions", map[string]any{"customer_id": id(cust)}),
		http.StatusUnprocessableEntity, "validation_errors", "")
}

// stepsJSON is the raw steps member of a session body, its order kept.
func stepsJSON(t *testing.T, body []byte) string {
	t.Helper()
	s := string(body)
	start := strings.Index(s, `"steps":`)
	require.GreaterOrEqual(t, start, 0)
	end := strings.Index(s[start:], "}},") + start + 2
	return s[start+len(`"steps":`) : end]
}

// Refusals of a customer session's create: the input (every problem at
// once, nothing written), then the customer (another tenant's, unknown,
// deleted: 404 on customer_id), then the credential kind.
func TestOnboardingCustomerSessionRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	acct := f.sk.CreateAccount(testenv.Individual())

	huge := map[string]any{}
	for i := range 21 {
		huge[fmt.Sprintf("k%d", i)] = "v"
	}
	huge[strings.Repeat("x", 41)] = strings.Repeat("v", 101)
	errs := requireValidation(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust),
		"account_id": id(acct), "entry_point": "web", "metadata": huge, "components": map[string]any{}}),
		"customer_id", "entry_point", "metadata", "metadata."+strings.Repeat("x", 41), "components")
	requireProblem(t, errs, "customer_id", "cannot be sent with account_id: a session onboards an account or a customer")
	requireProblem(t, errs, "metadata", "must have at most 20 keys")
	requireValidation(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust),
		"steps": []string{"geo_compliance"}}), "steps")
	requireValidation(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": ""}), "customer_id")
	r := f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": 7})
	requireError(t, r, http.StatusBadRequest, "parameter_invalid", "customer_id")
	requireEmptySessions(t, f)

	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	theirs := f.env.Client(other.Sandbox.Secret).CreateCustomer(testenv.Customer())
	for _, missing := range []string{id(theirs), "not-an-id", "01a2255a-cf8d-715c-8000-000000000000"} {
		requireError(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": missing}),
			http.StatusNotFound, "resource_missing", "customer_id")
	}
	requireError(t, f.live.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust)}),
		http.StatusNotFound, "resource_missing", "customer_id")
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(cust)).Status)
	requireError(t, f.sk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust)}),
		http.StatusNotFound, "resource_missing", "customer_id")
	requireError(t, f.pk.Post("/v1/onboarding/sessions", map[string]any{"customer_id": id(cust)}),
		http.StatusForbidden, "forbidden", "")
	requireEmptySessions(t, f)

	// Another tenant reads none of ours.
	mine := f.sk.CreateSDKOnboardingSession(testenv.CustomerOnboardingSession(id(f.sk.CreateCustomer(testenv.Customer()))))
	requireError(t, f.env.Client(other.Sandbox.Secret).Get("/v1/onboarding/sessions/"+mine.ID.String()),
		http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, f.env.Client(other.Sandbox.Secret).Get("/v1/onboarding/sessions").JSON()["data"])
}

func requireEmptySessions(t *testing.T, f *fixture) {
	t.Helper()
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM onboarding_sessions").Scan(t.Context(), &n))
	require.Zero(t, n, "a refused create writes nothing")
}

// Two creates for one customer racing: one active session remains, and
// one secret works (the database's unique index and the customer's row
// lock keep the rule whatever the order).
func TestOnboardingCustomerSessionConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	secrets := racingSessionCreates(f.sk, "/v1/onboarding/sessions", map[string]any{"customer_id": id(cust)})
	require.NotEmpty(t, secrets[0])
	require.NotEmpty(t, secrets[1], "both creates succeed, one after the other")
	var active int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM onboarding_sessions WHERE status = 'active'").Scan(t.Context(), &active))
	require.Equal(t, 1, active)
	working := 0
	for _, s := range secrets {
		if f.env.Client(s).Get("/v1/onboarding/sessions?limit=1").Status == http.StatusForbidden {
			working++ // a live secret authenticates, then is refused the list
		}
	}
	require.Equal(t, 1, working, "one secret works: the later session's")
}

// The database keeps one active session per customer even for a write
// that skips the row lock.
func TestOnboardingCustomerSessionUniqueActive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	sess := f.sk.CreateSDKOnboardingSession(testenv.CustomerOnboardingSession(id(cust)))
	_, err := f.env.DB.Bun.NewRaw(`INSERT INTO onboarding_sessions (merchant_id, id, livemode, customer_id, status, steps,
		url_token, expires_at, created) SELECT merchant_id, gen_random_uuid(), livemode, customer_id, 'active', steps,
		'x', expires_at, created FROM onboarding_sessions WHERE id = ?`, sess.ID).Exec(t.Context())
	require.ErrorContains(t, err, "onboarding_sessions_active_customer_key")
	_, err = f.env.DB.Bun.NewRaw(`UPDATE onboarding_sessions SET account_id = ? WHERE id = ?`,
		f.sk.CreateAccount(testenv.Individual())["id"], sess.ID).Exec(t.Context())
	require.ErrorContains(t, err, "onboarding_sessions_owner_check", "a session has one owner")
}

// An account's session on the SDK family keeps entry_point and metadata
// too; the spec's route keeps to the spec's members.
func TestOnboardingAccountSessionSDKMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("idv"))
	r := f.sk.Post("/v1/onboarding/sessions", map[string]any{"account_id": id(acct), "entry_point": "payout",
		"metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	s := r.JSON()
	require.Equal(t, id(acct), s["account_id"])
	require.Nil(t, s["customer_id"])
	require.Equal(t, "payout", s["entry_point"])
	require.Equal(t, map[string]any{"k": "v"}, f.sk.Get("/v1/onboarding/sessions/" + id(s)).JSON()["metadata"])
	require.Equal(t, map[string]any{"id_verification": map[string]any{"status": "pending"}}, s["steps"])
	spec := f.sk.Get("/v1/onboarding_sessions?account_id=" + id(acct)).JSON()
	require.Equal(t, []any{"id_verification"}, spec["steps"], "the spec's shape keeps its array of keys")
	require.NotContains(t, spec, "entry_point")
	requireValidation(t, f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct),
		"customer_id": "c", "entry_point": "kyc", "metadata": map[string]any{}}), "customer_id", "entry_point", "metadata")
}
