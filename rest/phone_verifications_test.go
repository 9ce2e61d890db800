package rest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var phoneKeys = sorted("id", "object", "account", "phone_number", "type", "provider", "status", "failure_type",
	"retriable", "category", "expires", "created", "updated", "livemode", "account_id")

func phonesPath(accountID string) string { return "/v1/accounts/" + accountID + "/phone_verifications" }

func confirmPhone(c *testenv.Client, accountID, pvID, code string) *testenv.Response {
	return c.Post(phonesPath(accountID)+"/"+pvID+"/confirm", map[string]any{"code": code})
}

// requireFailure checks an attempt's outcome members.
func requireFailure(t *testing.T, pv map[string]any, status, failure, category string, retriable any) {
	t.Helper()
	require.Equal(t, status, pv["status"], jsonString(pv))
	if failure == "" {
		require.Nil(t, pv["failure_type"])
		require.Nil(t, pv["category"])
		require.Nil(t, pv["retriable"])
		return
	}
	require.Equal(t, failure, pv["failure_type"], jsonString(pv))
	require.Equal(t, category, pv["category"], jsonString(pv))
	require.Equal(t, retriable, pv["retriable"], jsonString(pv))
}

func TestPhoneVerificationVerifiesAndActivates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	require.Equal(t, []any{"phone_verification"}, capByName(acct["capabilities"], "phone_verification")["currently_due"])

	r := f.sk.Post(phonesPath(id(acct)), map[string]any{})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pv := r.JSON()
	require.Equal(t, sorted(append([]string{"sandbox"}, phoneKeys...)...), keys(pv))
	require.Equal(t, "phone_verification", pv["object"])
	require.Equal(t, id(acct), pv["account"])
	require.Equal(t, "+12001001695", pv["phone_number"], "the profile's number by default")
	require.Equal(t, "sms", pv["type"])
	require.Equal(t, "sandbox", pv["provider"])
	require.Equal(t, false, pv["livemode"])
	requireFailure(t, pv, "pending", "", "", nil)
	require.Equal(t, map[string]any{"expected_codes": []any{"123456"}}, pv["sandbox"])
	created := requireInt(t, pv["created"], "created")
	require.Equal(t, created+600, requireInt(t, pv["expires"], "expires"), "a code lives ten minutes")

	// A wrong code: still pending, the challenge failed.
	r = confirmPhone(f.sk, id(acct), id(pv), "000000")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, phoneKeys, keys(r.JSON()), "the sandbox hint is only on the create")
	requireFailure(t, r.JSON(), "pending", "challenge_failed", "retriable_with_new_data", true)

	r = confirmPhone(f.sk, id(acct), id(pv), "123456")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	verified := r.JSON()
	requireFailure(t, verified, "verified", "", "", nil)

	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "active", capByName(a["capabilities"], "phone_verification")["status"])
	require.Equal(t, "active", a["status"])

	events := listEvents(t, f.sk, "")
	require.Equal(t, []string{"account.phone_verification.verified"}, eventTypes(events, id(pv)))
	ev := events[len(events)-1]
	for _, e := range events {
		if e.Type == "account.phone_verification.verified" {
			ev = e
		}
	}
	require.Equal(t, verified, ev.object(), "the event carries the attempt as GET shows it")
	require.Equal(t, 1, countType(events, "capability.activated"))

	// Confirming again answers the verified attempt, with no new event.
	r = confirmPhone(f.sk, id(acct), id(pv), "000000")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, verified, r.JSON())
	require.Equal(t, verified, f.sk.Get(phonesPath(id(acct))+"/"+id(pv)).JSON())
	require.Equal(t, 1, countType(listEvents(t, f.sk, ""), "account.phone_verification.verified"))
}

func TestPhoneVerificationAttemptsAndExpiry(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	create := func() map[string]any {
		r := f.sk.Post(phonesPath(id(acct)), nil)
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		return r.JSON()
	}

	// Three wrong codes fail the attempt.
	pv := create()
	for i, code := range []string{"000000", "999999", "000000"} {
		r := confirmPhone(f.sk, id(acct), id(pv), code)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		if i < 2 {
			requireFailure(t, r.JSON(), "pending", "challenge_failed", "retriable_with_new_data", true)
		} else {
			requireFailure(t, r.JSON(), "failed", "otp_attempts_exceeded", "terminal", false)
		}
	}
	requireError(t, confirmPhone(f.sk, id(acct), id(pv), "123456"), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, []string{"account.phone_verification.failed"}, eventTypes(listEvents(t, f.sk, ""), id(pv)))

	// The sandbox's expired code.
	pv = create()
	r := confirmPhone(f.sk, id(acct), id(pv), "111111")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	requireFailure(t, r.JSON(), "expired", "otp_not_completed", "retriable_with_new_data", true)
	require.Equal(t, []string{"account.phone_verification.failed"}, eventTypes(listEvents(t, f.sk, ""), id(pv)))

	// A code that lapsed: expired on read, and a confirm records it.
	pv = create()
	f.env.Clock.Advance(10*time.Minute + time.Second)
	got := f.sk.Get(phonesPath(id(acct)) + "/" + id(pv)).JSON()
	requireFailure(t, got, "expired", "otp_not_completed", "retriable_with_new_data", true)
	require.Len(t, f.sk.Get(phonesPath(id(acct)) + "?status=expired").JSON()["data"], 2)
	require.Empty(t, f.sk.Get(phonesPath(id(acct)) + "?status=pending").JSON()["data"])
	r = confirmPhone(f.sk, id(acct), id(pv), "123456")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	requireFailure(t, r.JSON(), "expired", "otp_not_completed", "retriable_with_new_data", true)
	require.Equal(t, []string{"account.phone_verification.failed"}, eventTypes(listEvents(t, f.sk, ""), id(pv)))
	requireError(t, confirmPhone(f.sk, id(acct), id(pv), "123456"), http.StatusUnprocessableEntity, "invalid_state", "")

	// A new attempt ends the open one.
	first := create()
	second := create()
	got = f.sk.Get(phonesPath(id(acct)) + "/" + id(first)).JSON()
	requireFailure(t, got, "expired", "session_out_of_order", "retriable_with_new_data", true)
	require.Empty(t, eventTypes(listEvents(t, f.sk, ""), id(first)), "superseding is not a failed challenge")
	requireError(t, confirmPhone(f.sk, id(acct), id(first), "123456"), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, http.StatusOK, confirmPhone(f.sk, id(acct), id(second), "123456").Status)

	// The list: newest first, filters, pagination.
	list := f.sk.Get(phonesPath(id(acct)) + "?per_page=2").JSON()
	data := list["data"].([]any)
	require.Equal(t, id(second), id(data[0].(map[string]any)))
	require.Equal(t, id(first), id(data[1].(map[string]any)))
	require.Equal(t, true, list["meta"].(map[string]any)["has_more"])
	require.Len(t, f.sk.Get(phonesPath(id(acct)) + "?status=verified").JSON()["data"], 1)
	require.Len(t, f.sk.Get(phonesPath(id(acct)) + "?status=failed").JSON()["data"], 1)
	requireValidation(t, f.sk.Get(phonesPath(id(acct))+"?status=done"), "status")
}

func TestPhoneVerificationLineRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	cases := []struct{ phone, failure, category string }{
		{"+12001002001", "line_untrusted", "retriable_with_new_data"},
		{"+1 (200) 100-2002", "line_not_eligible", "retriable_with_new_data"},
		{"2001002003", "external_api_error", "transient"},
	}
	for _, c := range cases {
		r := f.sk.Post(phonesPath(id(acct)), map[string]any{"phone_number": c.phone, "type": "prove"})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		pv := r.JSON()
		requireFailure(t, pv, "pending", c.failure, c.category, true)
		require.Equal(t, "prove", pv["type"])
		require.Nil(t, pv["expires"], "no code was sent")
		require.Equal(t, map[string]any{"expected_codes": []any{}}, pv["sandbox"])
		requireError(t, confirmPhone(f.sk, id(acct), id(pv), "123456"), http.StatusUnprocessableEntity, "invalid_state", "")
		require.Empty(t, eventTypes(listEvents(t, f.sk, ""), id(pv)))
	}
	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "pending", capByName(a["capabilities"], "phone_verification")["status"])
}

func TestPhoneVerificationLinksTheNumber(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// No phone on the profile: the number verified becomes the profile's.
	bare := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms).
		WithIndividual(func(i *testenv.IndividualSpec) { i.Phone, i.Birthdate = nil, "" }))
	requireValidation(t, f.sk.Post(phonesPath(id(bare)), nil), "phone_number")
	r := f.sk.Post(phonesPath(id(bare)), map[string]any{"phone_number": "+1 415 555 0100", "date_of_birth": "1985-04-02"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pv := r.JSON()
	require.Equal(t, "+14155550100", pv["phone_number"])
	a := f.sk.Get("/v1/accounts/" + id(bare)).JSON()
	ind := a["profile"].(map[string]any)["individual"].(map[string]any)
	require.Equal(t, "1985-04-02", ind["birthdate"], "date_of_birth is saved to the profile")
	require.Nil(t, ind["phone"])
	require.Equal(t, http.StatusOK, confirmPhone(f.sk, id(bare), id(pv), "123456").Status)
	a = f.sk.Get("/v1/accounts/" + id(bare)).JSON()
	ind = a["profile"].(map[string]any)["individual"].(map[string]any)
	require.Equal(t, map[string]any{"number": "4155550100", "country_code": "1"}, ind["phone"])
	require.Equal(t, "active", capByName(a["capabilities"], "phone_verification")["status"])
	updates := 0
	for _, e := range listEvents(t, f.sk, "account.updated") {
		if e.object()["id"] == id(bare) {
			updates++
		}
	}
	require.Equal(t, 2, updates, "the birthdate, then the phone")

	// Another number than the profile's proves that number only.
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	pv = f.sk.Post(phonesPath(id(acct)), map[string]any{"phone_number": "+14155550100"}).JSON()
	require.Equal(t, http.StatusOK, confirmPhone(f.sk, id(acct), id(pv), "123456").Status)
	a = f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "pending", capByName(a["capabilities"], "phone_verification")["status"])
	require.Equal(t, "2001001695", a["profile"].(map[string]any)["individual"].(map[string]any)["phone"].(map[string]any)["number"])
}

func TestPhoneVerificationRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())

	e := requireValidation(t, f.sk.Post(phonesPath(id(acct)), map[string]any{
		"phone_number": "12", "date_of_birth": "2999-01-01", "type": "Not A Provider"}),
		"phone_number", "date_of_birth", "type")
	require.NotNil(t, e)
	requireValidation(t, f.sk.Post(phonesPath(id(acct)), map[string]any{"phone_number": ""}), "phone_number")
	requireError(t, f.sk.Post(phonesPath(id(acct)), map[string]any{"phone_number": 12}), http.StatusBadRequest, "parameter_invalid", "phone_number")
	business := f.sk.CreateAccount(testenv.Business())
	requireValidation(t, f.sk.Post(phonesPath(id(business)), map[string]any{"phone_number": "+14155550100", "date_of_birth": "1990-01-01"}),
		"date_of_birth")

	pv := f.sk.CreatePhoneVerification(id(acct), testenv.PhoneVerificationSpec{})
	requireValidation(t, f.sk.Post(phonesPath(id(acct))+"/"+id(pv)+"/confirm", map[string]any{}), "code")
	requireValidation(t, confirmPhone(f.sk, id(acct), id(pv), "1234567890123"), "code")
	require.Empty(t, f.sk.Get(phonesPath(id(acct)) + "?status=failed").JSON()["data"], "refused confirms count no attempt")
	requireError(t, confirmPhone(f.sk, id(acct), "nope", "123456"), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get(phonesPath(id(acct))+"/nope"), http.StatusNotFound, "resource_missing", "id")
	other := f.sk.CreateAccount(testenv.Individual())
	requireError(t, f.sk.Get(phonesPath(id(other))+"/"+id(pv)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, confirmPhone(f.sk, id(other), id(pv), "123456"), http.StatusNotFound, "resource_missing", "id")

	// Credentials: the publishable key may not; production has no provider;
	// another merchant or mode sees nothing.
	requireError(t, f.pk.Post(phonesPath(id(acct)), nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get(phonesPath(id(acct))), http.StatusForbidden, "forbidden", "")
	// Refused before any look-up, so the answer says nothing of the id.
	requireError(t, f.live.Post(phonesPath(id(acct)), nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.live.Get(phonesPath(id(acct))+"/"+id(pv)), http.StatusNotFound, "resource_missing", "id")
	liveAcct := f.live.CreateAccount(testenv.Individual())
	requireError(t, f.live.Post(phonesPath(id(liveAcct)), nil), http.StatusServiceUnavailable, "provider_not_configured", "")
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	theirs := f.env.Client(k.Sandbox.Secret)
	requireError(t, theirs.Get(phonesPath(id(acct))), http.StatusNotFound, "resource_missing", "id")
	requireError(t, theirs.Post(phonesPath(id(acct))+"/"+id(pv)+"/confirm", map[string]any{"code": "123456"}),
		http.StatusNotFound, "resource_missing", "id")
	disabled := f.sk.CreateAccount(testenv.Individual())
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+id(disabled)).Status)
	requireError(t, f.sk.Post(phonesPath(id(disabled)), nil), http.StatusUnprocessableEntity, "invalid_state", "")
}

func TestPhoneVerificationWithOnboardingSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	holder := f.sk.OnboardingHolder(id(acct))
	r := holder.Post(phonesPath(id(acct)), nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pv := r.JSON()
	require.Equal(t, http.StatusOK, confirmPhone(holder, id(acct), id(pv), "123456").Status)
	require.Equal(t, "verified", holder.Get(phonesPath(id(acct)) + "/" + id(pv)).JSON()["status"])
	require.Len(t, holder.Get(phonesPath(id(acct))).JSON()["data"], 1)

	other := f.sk.CreateAccount(testenv.Individual())
	otherPV := f.sk.Post(phonesPath(id(other)), nil).JSON()
	requireError(t, holder.Post(phonesPath(id(other)), nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, holder.Get(phonesPath(id(other))), http.StatusNotFound, "resource_missing", "id")
	requireError(t, holder.Get(phonesPath(id(other))+"/"+id(otherPV)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, confirmPhone(holder, id(other), id(otherPV), "123456"), http.StatusNotFound, "resource_missing", "id")
}

func TestPhoneVerificationConcurrentConfirmsCountEveryWrongCode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	pv := f.sk.Post(phonesPath(id(acct)), nil).JSON()
	const n = 6
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = confirmPhone(f.sk, id(acct), id(pv), "000000").Status
		}()
	}
	wg.Wait()
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	require.Equal(t, map[int]int{http.StatusOK: 3, http.StatusUnprocessableEntity: 3}, counts, "three wrong codes, then the attempt is failed")
	requireFailure(t, f.sk.Get(phonesPath(id(acct))+"/"+id(pv)).JSON(), "failed", "otp_attempts_exceeded", "terminal", false)
	require.Equal(t, []string{"account.phone_verification.failed"}, eventTypes(listEvents(t, f.sk, ""), id(pv)))
}

func TestPhoneVerificationConcurrentCreatesLeaveOneOpen(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	const n = 4
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post(phonesPath(id(acct)), nil).Status
		}()
	}
	wg.Wait()
	for _, s := range statuses {
		require.Equal(t, http.StatusCreated, s)
	}
	require.Len(t, f.sk.Get(phonesPath(id(acct)) + "?status=pending").JSON()["data"], 1)
	require.Len(t, f.sk.Get(phonesPath(id(acct)) + "?status=expired").JSON()["data"], n-1)
}

// A phone verification write runs a fixed number of statements.
func TestPhoneVerificationWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	// credential, lock, capabilities, end the open attempt, insert
	r := f.sk.Post(phonesPath(id(acct)), nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 5, r.Statements, "create")
	pv := r.JSON()
	// credential, lock, capabilities, lock the attempt, update it
	r = confirmPhone(f.sk, id(acct), id(pv), "000000")
	require.Equal(t, 5, r.Statements, "wrong code")
	// + the account row, the activated capability, the events
	r = confirmPhone(f.sk, id(acct), id(pv), "123456")
	require.Equal(t, 8, r.Statements, "verified, activating")
}
