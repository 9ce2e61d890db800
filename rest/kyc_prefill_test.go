package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

func prefillPath(accountID string) string {
	return "/v1/accounts/" + accountID + "/kyc_prefill/confirm"
}

// verifyPhone proves the account's profile phone through the API.
func verifyPhone(t *testing.T, c *testenv.Client, accountID string) {
	t.Helper()
	require.Equal(t, models.PhoneStatusVerified, c.VerifyPhone(accountID).Status)
}

func TestKYCPrefillConfirm(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "kyc_prefill"))
	require.Equal(t, []any{"kyc_prefill_confirmation"}, capByName(acct["capabilities"], "kyc_prefill")["currently_due"])

	// Not confirmable before the phone is verified.
	e := requireValidation(t, f.sk.Post(prefillPath(id(acct)), nil), "kyc_prefill")
	require.Contains(t, jsonString(e), "phone")
	verifyPhone(t, f.sk, id(acct))

	r := f.sk.Do(http.MethodPost, prefillPath(id(acct)), nil, http.Header{"User-Agent": {"Holder/2.0"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	a := r.JSON()
	requireAccountShape(t, a)
	require.Equal(t, "active", capByName(a["capabilities"], "kyc_prefill")["status"])
	require.Empty(t, capByName(a["capabilities"], "kyc_prefill")["currently_due"])
	completed := listEvents(t, f.sk, "platform.account.prefill.completed")
	require.Len(t, completed, 1)
	require.Equal(t, id(acct), completed[0].object()["id"])
	require.Equal(t, "active", capByName(completed[0].object()["capabilities"], "kyc_prefill")["status"])

	// Later confirms answer the account and emit nothing.
	again := f.sk.Post(prefillPath(id(acct)), nil)
	require.Equal(t, http.StatusOK, again.Status, string(again.Body))
	require.Equal(t, a["updated"], again.JSON()["updated"])
	require.Len(t, listEvents(t, f.sk, "platform.account.prefill.completed"), 1)
}

func TestKYCPrefillPersonas(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, phone := range []string{"+12001001697", "+12001001698", "+17742345678", "+12267738525"} {
		acct := f.sk.CreateAccount(persona(phone, "kyc_prefill"))
		verifyPhone(t, f.sk, id(acct))
		requireValidation(t, f.sk.Post(prefillPath(id(acct)), nil), "kyc_prefill")
	}
	plain := f.sk.CreateAccount(persona("+14155550100", "kyc_prefill"))
	verifyPhone(t, f.sk, id(plain))
	require.Equal(t, http.StatusOK, f.sk.Post(prefillPath(id(plain)), nil).Status, "any other US number has prefill")

	without := f.sk.CreateAccount(persona("+12001001695", "kyc"))
	verifyPhone(t, f.sk, id(without))
	requireValidation(t, f.sk.Post(prefillPath(id(without)), nil), "kyc_prefill")
	require.Empty(t, listEvents(t, f.sk, "platform.account.prefill.completed")[1:])

	requireError(t, f.pk.Post(prefillPath(id(plain)), nil), http.StatusForbidden, "forbidden", "")
	// Production mode has no prefill data provider: refused before any
	// look-up, so the answer says nothing of the id.
	requireError(t, f.live.Post(prefillPath(id(plain)), nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.sk.Post(prefillPath("nope"), nil), http.StatusNotFound, "resource_missing", "id")
}

func TestKYCPrefillConcurrentConfirmsEmitOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "kyc_prefill"))
	verifyPhone(t, f.sk, id(acct))
	var wg sync.WaitGroup
	statuses := make([]int, 3)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post(prefillPath(id(acct)), nil).Status
		}()
	}
	wg.Wait()
	require.Equal(t, []int{200, 200, 200}, statuses)
	require.Len(t, listEvents(t, f.sk, "platform.account.prefill.completed"), 1)
}

// A step whose requirement ended in a terminal failure says so.
func TestStepOfATerminalFailureIsFailed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	acct := f.sk.CreateAccount(persona("+12001001691", "kyc", "idv"))
	run := f.sk.CreateIdentityVerification(id(acct))
	require.Equal(t, "failed", awaitRun(t, f, id(acct), id(run))["status"])
	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	var step map[string]any
	for _, s := range a["steps"].([]any) {
		if s.(map[string]any)["key"] == "id_verification" {
			step = s.(map[string]any)
		}
	}
	require.Equal(t, "failed", step["status"], jsonString(step))
	require.Equal(t, []any{"document_verification"}, step["currently_due"], "the document flow is still open")
	kyc := capByName(a["capabilities"], "kyc")
	require.Empty(t, kyc["currently_due"])
	require.Equal(t, "verification_rejected", kyc["errors"].([]any)[0].(map[string]any)["code"])
	s := f.sk.CreateOnboardingSession(testenv.OnboardingSession(id(acct)))
	require.Equal(t, []capability.StepKey{capability.StepIDVerification}, s.Steps, "a failed step with something due is still offered")
}
