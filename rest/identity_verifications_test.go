package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var runKeys = sorted("id", "object", "account", "livemode", "created", "status", "failure_type", "retriable",
	"category", "completed", "review_opened", "review_resolved")

// persona is a complete individual whose phone picks a sandbox persona.
func persona(phone string, caps ...string) testenv.AccountSpec {
	return testenv.Individual().WithCapabilities(caps...).
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}).
		WithIndividual(func(i *testenv.IndividualSpec) { i.Phone = &testenv.PhoneSpec{Number: phone} })
}

func runsPath(accountID string) string {
	return "/v1/accounts/" + accountID + "/identity_verifications"
}

// awaitRun reads a run once its job has run (concluded, or a review
// opened): again each time the job engine finishes a job, with no deadline
// of its own.
func awaitRun(t *testing.T, f *fixture, accountID, runID string) map[string]any {
	t.Helper()
	var run map[string]any
	f.env.AwaitJobs(func() bool {
		r := f.sk.Get(runsPath(accountID) + "/" + runID)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		run = r.JSON()
		return run["status"] != "pending" || run["review_opened"] != nil
	})
	return run
}

func TestIdentityVerificationDrivesKYCToActive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	acct := f.sk.CreateAccount(persona("+12001001695", "kyc"))
	kyc := capByName(acct["capabilities"], "kyc")
	require.Equal(t, []any{"identity_verification"}, kyc["currently_due"])

	r := f.sk.Post(runsPath(id(acct)), nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	run := r.JSON()
	require.Equal(t, runKeys, keys(run))
	require.Equal(t, "identity_verification", run["object"])
	require.Equal(t, "pending", run["status"])
	require.Equal(t, id(acct), run["account"])
	for _, k := range []string{"failure_type", "retriable", "category", "completed", "review_opened", "review_resolved"} {
		require.Nil(t, run[k], k)
	}

	done := awaitRun(t, f, id(acct), id(run))
	require.Equal(t, "approved", done["status"])
	requireInt(t, done["completed"], "completed")
	require.Nil(t, done["failure_type"])

	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "active", capByName(a["capabilities"], "kyc")["status"])
	require.Equal(t, "active", a["status"])
	types := eventTypes(listEvents(t, f.sk, ""), id(run))
	require.Equal(t, []string{"account.identity_verification.approved"}, types)
	require.Equal(t, 1, countType(listEvents(t, f.sk, "capability.activated"), "capability.activated"))
	require.Equal(t, 1, countType(listEvents(t, f.sk, "account.activated"), "account.activated"))
}

func TestIdentityVerificationPersonas(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	cases := []struct {
		phone, status, failure, category string
		retriable                        any
		review                           bool
		errCode                          string
		event                            string
	}{
		{"+12001001695", "approved", "", "", nil, false, "", "account.identity_verification.approved"},
		{"+17742345678", "failed", "identity_mismatch", "retriable_with_new_data", true, false, "identity_mismatch", "account.identity_verification.failed"},
		{"+12001001696", "pending", "", "", nil, true, "review_pending", ""},
		{"+12001001699", "approved", "", "", nil, false, "", "account.identity_verification.approved"},
		{"+12001001690", "errored", "provider_error", "transient", true, false, "provider_error", "account.identity_verification.failed"},
		{"+12001001691", "failed", "verification_rejected", "terminal", false, false, "verification_rejected", "account.identity_verification.failed"},
	}
	for _, c := range cases {
		acct := f.sk.CreateAccount(persona(c.phone, "kyc", "creator_shield"))
		r := f.sk.Post(runsPath(id(acct)), nil)
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		run := awaitRun(t, f, id(acct), id(r.JSON()))
		require.Equal(t, c.status, run["status"], c.phone)
		if c.failure == "" {
			require.Nil(t, run["failure_type"], c.phone)
			require.Nil(t, run["category"], c.phone)
			require.Nil(t, run["retriable"], c.phone)
		} else {
			require.Equal(t, c.failure, run["failure_type"], c.phone)
			require.Equal(t, c.category, run["category"], c.phone)
			require.Equal(t, c.retriable, run["retriable"], c.phone)
		}
		if c.review {
			requireInt(t, run["review_opened"], "review_opened")
			require.Nil(t, run["completed"])
			require.Nil(t, run["review_resolved"])
		} else {
			requireInt(t, run["completed"], "completed")
		}
		a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
		kyc := capByName(a["capabilities"], "kyc")
		if c.errCode == "" {
			require.Equal(t, "active", kyc["status"], c.phone)
			require.Empty(t, kyc["errors"])
		} else {
			require.Equal(t, "pending", kyc["status"], c.phone)
			errs := kyc["errors"].([]any)
			require.Len(t, errs, 1, c.phone)
			require.Equal(t, c.errCode, errs[0].(map[string]any)["code"], c.phone)
			if c.category == "terminal" {
				require.Empty(t, kyc["currently_due"], "nothing is asked for after a terminal failure")
			}
		}
		shield := capByName(a["capabilities"], "creator_shield")
		if c.phone == "+12001001699" {
			require.Equal(t, "pending", shield["status"])
			require.Equal(t, "adverse_findings", shield["errors"].([]any)[0].(map[string]any)["code"])
		}
		types := eventTypes(listEvents(t, f.sk, ""), id(run))
		if c.event == "" {
			require.Empty(t, types, c.phone)
		} else {
			require.Equal(t, []string{c.event}, types, c.phone)
		}
	}
}

func TestIdentityVerificationRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithIdentityAttempts(2))
	f.env.StartJobs()

	// 409 while a run is open (the review persona's stays open).
	review := f.sk.CreateAccount(persona("+12001001696", "kyc"))
	first := f.sk.Post(runsPath(id(review)), nil).JSON()
	r := f.sk.Post(runsPath(id(review)), nil)
	e := requireError(t, r, http.StatusConflict, "verification_in_progress", "")
	require.Equal(t, map[string]any{"id": id(first)}, e["details"])

	// 429 once the allowance is spent; errored runs do not count.
	failing := f.sk.CreateAccount(persona("+17742345678", "kyc"))
	for range 2 {
		run := f.sk.Post(runsPath(id(failing)), nil)
		require.Equal(t, http.StatusCreated, run.Status, string(run.Body))
		awaitRun(t, f, id(failing), id(run.JSON()))
	}
	requireError(t, f.sk.Post(runsPath(id(failing)), nil), http.StatusTooManyRequests, "attempt_limit_reached", "")
	errored := f.sk.CreateAccount(persona("+12001001690", "kyc"))
	for range 3 {
		run := f.sk.Post(runsPath(id(errored)), nil)
		require.Equal(t, http.StatusCreated, run.Status, string(run.Body))
		awaitRun(t, f, id(errored), id(run.JSON()))
	}

	// 422 capability_disabled while kyc is disabled.
	disabled := f.sk.CreateAccount(persona("+12001001695", "kyc"))
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+id(disabled)+"/capabilities/kyc").Status)
	requireError(t, f.sk.Post(runsPath(id(disabled)), nil), http.StatusUnprocessableEntity, "capability_disabled", "")

	// 422 kyc_not_available outside the US (the persona, a foreign address).
	requireError(t, f.sk.Post(runsPath(id(f.sk.CreateAccount(persona("+12267738525", "kyc")))), nil),
		http.StatusUnprocessableEntity, "kyc_not_available", "")
	abroad := f.sk.CreateAccount(persona("+12001001695").WithIndividual(func(i *testenv.IndividualSpec) {
		i.Address.Country = "GB"
	}))
	requireError(t, f.sk.Post(runsPath(id(abroad)), nil), http.StatusUnprocessableEntity, "kyc_not_available", "")

	// Credentials and tenancy.
	requireError(t, f.pk.Post(runsPath(id(review)), nil), http.StatusForbidden, "forbidden", "")
	// Production mode has no identity provider: refused before any
	// look-up, so the answer says nothing of the id.
	requireError(t, f.live.Post(runsPath(id(review)), nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.live.Get(runsPath(id(review))), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get(runsPath(id(review))+"/"+id(first)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get(runsPath(id(failing))+"/"+id(first)), http.StatusNotFound, "resource_missing", "id")
}

func TestIdentityVerificationList(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	acct := f.sk.CreateAccount(persona("+12001001690", "kyc"))
	var ids []string
	for range 3 {
		run := f.sk.CreateIdentityVerification(id(acct))
		awaitRun(t, f, id(acct), id(run))
		ids = append(ids, id(run))
	}
	r := f.sk.Get(runsPath(id(acct)) + "?per_page=2")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	body := r.JSON()
	data := body["data"].([]any)
	require.Equal(t, []string{ids[2], ids[1]}, []string{id(data[0].(map[string]any)), id(data[1].(map[string]any))}, "most recent first")
	require.Equal(t, true, body["meta"].(map[string]any)["has_more"])
	require.Len(t, f.sk.Get(runsPath(id(acct)) + "?status=errored&provider=sandbox").JSON()["data"], 3)
	require.Empty(t, f.sk.Get(runsPath(id(acct)) + "?status=approved").JSON()["data"])
	requireValidation(t, f.sk.Get(runsPath(id(acct))+"?provider=other"), "provider")
	requireValidation(t, f.sk.Get(runsPath(id(acct))+"?status=done"), "status")
	empty := f.sk.CreateAccount(testenv.Individual())
	require.Equal(t, []any{}, f.sk.Get(runsPath(id(empty))).JSON()["data"])
}

func TestIdentityVerificationConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := setup(t) // jobs not started: the run stays open
	acct := f.sk.CreateAccount(persona("+12001001695", "kyc"))
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post(runsPath(id(acct)), nil).Status
		}()
	}
	wg.Wait()
	require.ElementsMatch(t, []int{http.StatusCreated, http.StatusConflict}, statuses)
	require.Len(t, f.sk.Get(runsPath(id(acct))).JSON()["data"], 1)
	var jobs int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM river_job WHERE kind = 'identity_verification.conclude'").Scan(t.Context(), &jobs))
	require.Equal(t, 1, jobs, "the refused create left no job")
}
