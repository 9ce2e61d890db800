package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestDocumentVerificationApproves(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "idv", "age_verification"))
	require.Equal(t, []any{"document_verification"}, capByName(acct["capabilities"], "idv")["currently_due"])
	holder := f.sk.OnboardingHolder(id(acct))

	r := holder.Post("/v1/idv/session", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, []string{"inquiry_id"}, keys(r.JSON()))
	inquiry := r.JSON()["inquiry_id"].(string)

	// An open inquiry is reused, with a session token to resume it.
	r = holder.Post("/v1/idv/session", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, inquiry, r.JSON()["inquiry_id"])
	require.Regexp(t, `^idv_sess_[0-9A-Za-z]{32}$`, r.JSON()["session_token"])

	r = holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": inquiry})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"verified": true, "status": "approved", "failure_type": nil, "category": nil, "retriable": nil}, r.JSON())
	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "active", capByName(a["capabilities"], "idv")["status"])
	require.Equal(t, "active", capByName(a["capabilities"], "age_verification")["status"])
	require.Equal(t, 2, countType(listEvents(t, f.sk, "capability.activated"), "capability.activated"))

	// Completing again answers the same result; a new session opens a new inquiry.
	again := holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": inquiry})
	require.Equal(t, r.JSON(), again.JSON())
	r = holder.Post("/v1/idv/session", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.NotEqual(t, inquiry, r.JSON()["inquiry_id"])
}

func TestDocumentVerificationOutcomes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	cases := []struct{ phone, status string }{
		{"+12001003001", "declined"},
		{"+12001003002", "failed"},
		{"+12001003003", "needs_review"},
		{"+12267738525", "approved"}, // the non-US persona's documents pass
	}
	for _, c := range cases {
		acct := f.sk.CreateAccount(persona(c.phone, "idv"))
		holder := f.sk.OnboardingHolder(id(acct))
		inquiry := holder.Post("/v1/idv/session", nil).JSON()["inquiry_id"]
		r := holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": inquiry})
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		require.Equal(t, c.status, r.JSON()["status"], c.phone)
		require.Equal(t, c.status == "approved", r.JSON()["verified"], c.phone)
		require.Nil(t, r.JSON()["category"], "no run concluded")
		want := "pending"
		if c.status == "approved" {
			want = "active"
		}
		require.Equal(t, want, capByName(f.sk.Get("/v1/accounts/" + id(acct)).JSON()["capabilities"], "idv")["status"], c.phone)
	}

	// After a run concluded without passing, complete carries its outcome.
	acct := f.sk.CreateAccount(persona("+17742345678", "kyc", "idv"))
	run := f.sk.CreateIdentityVerification(id(acct))
	awaitRun(t, f, id(acct), id(run))
	holder := f.sk.OnboardingHolder(id(acct))
	inquiry := holder.Post("/v1/idv/session", nil).JSON()["inquiry_id"]
	r := holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": inquiry})
	require.Equal(t, map[string]any{"verified": true, "status": "approved", "failure_type": "identity_mismatch",
		"category": "retriable_with_new_data", "retriable": true}, r.JSON())
}

func TestDocumentVerificationRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "idv"))
	holder := f.sk.OnboardingHolder(id(acct))
	requireError(t, f.sk.Post("/v1/idv/session", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/idv/session", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Post("/v1/idv/complete", map[string]any{"inquiry_id": "x"}), http.StatusForbidden, "forbidden", "")
	requireValidation(t, holder.Post("/v1/idv/complete", map[string]any{}), "inquiry_id")
	requireError(t, holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": "nope"}), http.StatusNotFound, "resource_missing", "inquiry_id")

	// Another account's inquiry is missing.
	other := f.sk.CreateAccount(persona("+12001001695", "idv"))
	theirs := f.sk.OnboardingHolder(id(other)).Post("/v1/idv/session", nil).JSON()["inquiry_id"]
	requireError(t, holder.Post("/v1/idv/complete", map[string]any{"inquiry_id": theirs}), http.StatusNotFound, "resource_missing", "inquiry_id")

	// Live mode has no identity provider.
	live := f.live.CreateAccount(testenv.Individual())
	r := f.live.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(live)})
	requireError(t, f.env.Client(r.JSON()["client_secret"].(string)).Post("/v1/idv/session", nil),
		http.StatusServiceUnavailable, "provider_not_configured", "")
}

func TestDocumentVerificationConcurrentSessionsShareOneInquiry(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "idv"))
	holder := f.sk.OnboardingHolder(id(acct))
	const n = 4
	inquiries := make([]string, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := holder.Post("/v1/idv/session", nil)
			statuses[i], inquiries[i] = r.Status, r.JSON()["inquiry_id"].(string)
		}()
	}
	wg.Wait()
	created := 0
	for i := range n {
		require.Equal(t, inquiries[0], inquiries[i])
		if statuses[i] == http.StatusCreated {
			created++
		}
	}
	require.Equal(t, 1, created)
}
