package rest_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

func capsPath(a map[string]any) string { return "/v1/accounts/" + id(a) + "/capabilities" }

func requestCaps(c *testenv.Client, a map[string]any, names ...string) *testenv.Response {
	return c.Post(capsPath(a), map[string]any{"capabilities": names})
}

func TestRequestCapabilities(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())

	// New capabilities: 201 with a bare array, dependencies included.
	r := requestCaps(f.sk, a, "card_receive")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	created := r.Array()
	require.Equal(t, []string{"kyc", "card_verification", "card_receive"}, capNames(arrayOf(created)))
	for _, c := range created {
		requireCapabilityShape(t, c)
		require.Equal(t, id(a), c["account_id"])
		require.Equal(t, "pending", c["status"])
	}

	// The same request again creates nothing: 200, unchanged.
	r = requestCaps(f.sk, a, "card_receive")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, created, r.Array())

	// One new, one existing dependency: 201 and both returned.
	r = requestCaps(f.sk, a, "card_send")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, []string{"card_verification", "card_send"}, capNames(arrayOf(r.Array())))
	require.Equal(t, created[1], r.Array()[0])

	// The list answers {data: [...]} in catalogue order.
	l := f.sk.Get(capsPath(a))
	require.Equal(t, http.StatusOK, l.Status)
	body := l.JSON()
	require.Equal(t, []string{"data"}, keys(body))
	require.Equal(t, []string{"kyc", "card_verification", "card_send", "card_receive"}, capNames(body["data"]))
	for _, c := range body["data"].([]any) {
		requireCapabilityShape(t, c.(map[string]any))
	}
	require.Equal(t, body["data"], f.sk.Get("/v1/accounts/" + id(a)).JSON()["capabilities"])

	// Each request that changed the account wrote account.updated.
	evs := listEvents(t, f.sk, "account.updated")
	require.Len(t, evs, 2)
	require.Equal(t, []any{}, evs[0].previous()["capabilities"])
	require.Equal(t, []string{"kyc", "card_verification", "card_receive"}, capNames(evs[1].previous()["capabilities"]))
	require.Equal(t, capNames(body["data"]), capNames(evs[1].object()["capabilities"]))
}

func TestRequestCapabilitiesValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())

	errs := requireValidation(t, requestCaps(f.sk, a), "capabilities")
	requireProblem(t, errs, "capabilities", "must name at least one capability")
	requireValidation(t, f.sk.Post(capsPath(a), nil), "capabilities")
	errs = requireValidation(t, requestCaps(f.sk, a, "kyc", "warp_drive", "KYC"), "capabilities")
	require.Equal(t, []any{`contains "warp_drive", which is not a capability`, `contains "KYC", which is not a capability`}, errs["capabilities"])
	requireError(t, f.sk.Post(capsPath(a), `{"capabilities": "kyc"}`), http.StatusBadRequest, "parameter_invalid", "capabilities")
	requireError(t, f.sk.Post(capsPath(a), `{"capabilities": [1]}`), http.StatusBadRequest, "parameter_invalid", "capabilities")
	requireError(t, f.sk.Post(capsPath(a), `{"capabilities": [`), http.StatusBadRequest, "invalid_json", "")

	require.Equal(t, []any{}, f.sk.Get(capsPath(a)).JSON()["data"], "nothing was created")
	require.Empty(t, listEvents(t, f.sk, "account.updated"))
}

func TestMerchantDisabledCapabilitiesAreSkipped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B",
		DisabledCapabilities: []string{string(capability.KYCPrefill), string(capability.BankAccountVerification)}})
	c := f.env.Client(k.Sandbox.Secret)
	a := c.CreateAccount(testenv.Individual().WithCapabilities("kyc_prefill"))
	require.Equal(t, []any{}, a["capabilities"], "a switched-off capability is skipped on create too, with its dependencies")

	r := requestCaps(c, a, "kyc_prefill", "card_send")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, []string{"card_verification", "card_send"}, capNames(arrayOf(r.Array())), "the others are still created")

	r = requestCaps(c, a, "kyc_prefill")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "[]\n", string(r.Body), "all skipped: 200 with an empty array")

	r = requestCaps(c, a, "kyc_prefill", "card_send")
	require.Equal(t, http.StatusOK, r.Status, "skipped plus existing: 200")
	require.Equal(t, []string{"card_verification", "card_send"}, capNames(arrayOf(r.Array())))

	// A switched-off dependency is skipped; the rest of the tree is created.
	r = requestCaps(c, a, "bank_account_receive")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, []string{"kyc", "bank_account_receive"}, capNames(arrayOf(r.Array())))

	require.Equal(t, []string{"kyc", "card_verification", "card_send", "bank_account_receive"}, capNames(c.Get(capsPath(a)).JSON()["data"]))
	requireError(t, c.Get(capsPath(a)+"/kyc_prefill"), http.StatusNotFound, "resource_missing", "name")
}

func TestCapabilityNotProvisionable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "Payments only",
		Products: []string{string(capability.ProductPayments), string(capability.ProductPayouts)}})
	c := f.env.Client(k.Sandbox.Secret)
	a := c.CreateAccount(testenv.Individual().WithCapabilities("card_send"))

	check := func(r *testenv.Response, name, product string) map[string]any {
		t.Helper()
		e := requireError(t, r, http.StatusUnprocessableEntity, "capability_not_provisionable", "capabilities")
		require.Equal(t, "Capability "+name+" requires the "+product+" product", e["message"])
		d := errorDetails(e)
		require.Equal(t, sorted("message", "data"), keys(d))
		require.Equal(t, map[string]any{"capability": name, "required_product": product}, d["data"])
		return e
	}
	fromRequest := check(requestCaps(c, a, "kyb"), "kyb", "identity")
	check(requestCaps(c, a, "card_send", "geo_compliance", "kyb"), "geo_compliance", "geo_compliance")
	// A dependency outside the products refuses the request too.
	check(requestCaps(c, a, "card_receive"), "kyc", "identity")

	// POST /v1/accounts answers the identical rejection.
	fromCreate := check(c.Post("/v1/accounts", testenv.Individual().WithCapabilities("kyb").RESTBody()), "kyb", "identity")
	delete(fromRequest, "request_id")
	delete(fromCreate, "request_id")
	require.Equal(t, fromRequest, fromCreate)
	check(c.Post("/v1/accounts", testenv.Individual().WithCapabilities("card_send", "creator_shield").RESTBody()), "creator_shield", "creator_shield")

	// Nothing was written by the refusals.
	require.Equal(t, []string{"card_verification", "card_send"}, capNames(c.Get(capsPath(a)).JSON()["data"]))
	require.Len(t, c.Get("/v1/accounts").JSON()["data"], 1)
	require.Len(t, listEvents(t, c, ""), 1)
}

func TestDisableCapability(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_receive", "kyc_prefill"))
	path := capsPath(a)

	// kyc is needed by live kyc_prefill and card_receive.
	e := requireError(t, f.sk.Delete(path+"/kyc"), http.StatusUnprocessableEntity, "capability_has_live_dependents", "name")
	require.Equal(t, "Capability kyc cannot be disabled while capabilities that depend on it are pending or active", e["message"])
	d := errorDetails(e)
	require.Equal(t, sorted("message", "data"), keys(d))
	require.Equal(t, map[string]any{"capability": "kyc", "dependents": []any{"kyc_prefill", "card_receive"}}, d["data"])
	e = requireError(t, f.sk.Delete(path+"/card_verification"), http.StatusUnprocessableEntity, "capability_has_live_dependents", "name")
	require.Equal(t, map[string]any{"capability": "card_verification", "dependents": []any{"card_receive"}}, errorDetails(e)["data"])

	// A capability nothing depends on can be disabled.
	r := f.sk.Delete(path + "/card_receive")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	off := r.JSON()
	requireCapabilityShape(t, off)
	require.Equal(t, "disabled", off["status"])
	require.Nil(t, off["disabled_reason"], "a merchant's disable has no reason")
	require.Equal(t, []any{}, off["currently_due"])
	require.Equal(t, []any{}, off["errors"])
	disabledAt := requireISO(t, off["disabled"], "disabled")
	require.Equal(t, disabledAt, requireISO(t, off["updated"], "updated"))
	require.Equal(t, off, f.sk.Get(path+"/card_receive").JSON())

	evs := listEvents(t, f.sk, "capability.disabled")
	require.Len(t, evs, 1)
	require.Equal(t, off, evs[0].object())

	// Again: 200, unchanged, no second event.
	again := f.sk.Delete(path + "/card_receive")
	require.Equal(t, http.StatusOK, again.Status)
	require.Equal(t, off, again.JSON())
	require.Len(t, listEvents(t, f.sk, "capability.disabled"), 1)

	// Only kyc_prefill still holds kyc now; card_verification is free.
	e = requireError(t, f.sk.Delete(path+"/kyc"), http.StatusUnprocessableEntity, "capability_has_live_dependents", "name")
	require.Equal(t, []any{"kyc_prefill"}, errorDetails(e)["data"].(map[string]any)["dependents"])
	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/card_verification").Status)
	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/kyc_prefill").Status)
	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/kyc").Status)

	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Equal(t, "pending", got["status"], "disabling capabilities never changes the account status")
	require.Equal(t, map[string]string{"kyc": "disabled", "phone_verification": "pending", "kyc_prefill": "disabled",
		"card_verification": "disabled", "card_receive": "disabled"}, capStatuses(got["capabilities"]))
	require.Len(t, listEvents(t, f.sk, "capability.disabled"), 4)
	require.Empty(t, listEvents(t, f.sk, "account.disabled"))

	// Unknown and never-requested names are 404.
	requireError(t, f.sk.Delete(path+"/card_send"), http.StatusNotFound, "resource_missing", "name")
	requireError(t, f.sk.Delete(path+"/warp_drive"), http.StatusNotFound, "resource_missing", "name")
}

func TestDisableIsBlockedByActiveButNotDisabledDependents(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithFacts(func(_ *models.Account, f *capability.Facts) { f.DocumentVerified = true }))
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("age_verification").WithTermsOfService(acceptedTerms))
	require.Equal(t, map[string]string{"idv": "active", "age_verification": "active"}, capStatuses(a["capabilities"]))
	require.Equal(t, "active", a["status"])
	path := capsPath(a)

	e := requireError(t, f.sk.Delete(path+"/idv"), http.StatusUnprocessableEntity, "capability_has_live_dependents", "name")
	require.Equal(t, map[string]any{"capability": "idv", "dependents": []any{"age_verification"}}, errorDetails(e)["data"])

	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/age_verification").Status)
	r := f.sk.Delete(path + "/idv")
	require.Equal(t, http.StatusOK, r.Status, "a disabled dependent does not block: %s", r.Body)
	require.Equal(t, "disabled", r.JSON()["status"])

	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Equal(t, "active", got["status"], "losing every active capability does not demote the account")
	require.Nil(t, got["blocked_reason"])
	require.Len(t, listEvents(t, f.sk, "capability.disabled"), 2)
}

func TestReactivateCapability(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_send"))
	path := capsPath(a)

	e := requireError(t, f.sk.Post(path+"/card_send/reactivate", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, "Only a disabled capability can be reactivated; card_send is pending", e["message"])

	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/card_send").Status)
	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/card_verification").Status)

	r := f.sk.Post(path+"/card_send/reactivate", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	c := r.JSON()
	requireCapabilityShape(t, c)
	require.Equal(t, "pending", c["status"])
	require.Nil(t, c["disabled"])
	require.Nil(t, c["disabled_reason"])
	require.Equal(t, []any{"payment_method.card", "terms_of_service"}, c["currently_due"], "requirements are evaluated again")

	// Its dependency returns with it.
	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Equal(t, map[string]string{"card_verification": "pending", "card_send": "pending"}, capStatuses(got["capabilities"]))

	upd := listEvents(t, f.sk, "account.updated")
	require.Len(t, upd, 1, "a reactivation is announced")
	require.Equal(t, map[string]string{"card_verification": "disabled", "card_send": "disabled"}, capStatuses(upd[0].previous()["capabilities"]))
	require.Equal(t, got["capabilities"], upd[0].object()["capabilities"])

	requireError(t, f.sk.Post(path+"/card_send/reactivate", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post(path+"/kyc/reactivate", nil), http.StatusNotFound, "resource_missing", "name")
	requireError(t, f.sk.Post(path+"/warp_drive/reactivate", nil), http.StatusNotFound, "resource_missing", "name")
}

func TestReactivateReturnsPendingEvenWhenSatisfied(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	path := capsPath(a) + "/phone_verification"
	require.Equal(t, "active", capByName(a["capabilities"], "phone_verification")["status"])

	require.Equal(t, "disabled", f.sk.Delete(path).JSON()["status"])
	r := f.sk.Post(path+"/reactivate", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "pending", r.JSON()["status"], "never active directly")
	require.Equal(t, []any{}, r.JSON()["currently_due"])
	require.Equal(t, "pending", f.sk.Get(path).JSON()["status"])
	require.Equal(t, "active", f.sk.Get("/v1/accounts/" + id(a)).JSON()["status"])
	require.Len(t, listEvents(t, f.sk, "capability.activated"), 1)

	// The next re-evaluation activates it again.
	u := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}})
	require.Equal(t, "active", capByName(u.JSON()["capabilities"], "phone_verification")["status"])
	require.Len(t, listEvents(t, f.sk, "capability.activated"), 2)
	require.Len(t, listEvents(t, f.sk, "account.activated"), 1, "the account was activated once")
}

func TestReactivateRespectsTheMerchantsProvisioning(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc_prefill"))
	path := capsPath(a)
	require.Equal(t, http.StatusOK, f.sk.Delete(path+"/kyc_prefill").Status)

	// Provisioning changed after the capability was made (an operator action).
	f.exec(t, `UPDATE merchants SET disabled_capabilities = '{phone_verification}' WHERE id = ?`, f.env.Merchant.ID)
	e := requireError(t, f.sk.Post(path+"/kyc_prefill/reactivate", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, "Capability phone_verification is switched off for this merchant", e["message"])

	f.exec(t, `UPDATE merchants SET disabled_capabilities = '{}', products = '{payments}' WHERE id = ?`, f.env.Merchant.ID)
	e = requireError(t, f.sk.Post(path+"/kyc_prefill/reactivate", nil), http.StatusUnprocessableEntity, "capability_not_provisionable", "capabilities")
	require.Equal(t, map[string]any{"capability": "kyc", "required_product": "identity"}, errorDetails(e)["data"])

	require.Equal(t, "disabled", f.sk.Get(path + "/kyc_prefill").JSON()["status"], "refused reactivations change nothing")
	require.Empty(t, listEvents(t, f.sk, "account.updated"))
}

func TestGetCapability(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	r := f.sk.Get(capsPath(a) + "/kyc")
	require.Equal(t, http.StatusOK, r.Status)
	c := r.JSON()
	requireCapabilityShape(t, c)
	require.Equal(t, capByName(a["capabilities"], "kyc"), c)

	e := requireError(t, f.sk.Get(capsPath(a)+"/kyb"), http.StatusNotFound, "resource_missing", "name")
	require.Equal(t, "No such capability: 'kyb'", e["message"])
	requireError(t, f.sk.Get(capsPath(a)+"/warp_drive"), http.StatusNotFound, "resource_missing", "name")
}

func TestCapabilityRequirementsAreDerivedOnRead(t *testing.T) {
	t.Parallel()
	var run atomic.Pointer[capability.RunOutcome]
	f := setup(t, testenv.WithFacts(func(_ *models.Account, f *capability.Facts) { f.IdentityRun = run.Load() }))
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc", "address_verification"))
	path := capsPath(a) + "/kyc"
	read := func() map[string]any {
		t.Helper()
		r := f.sk.Get(path)
		require.Equal(t, http.StatusOK, r.Status)
		c := r.JSON()
		requireCapabilityShape(t, c)
		require.Equal(t, "pending", c["status"], "reading never changes the status")
		return c
	}
	c := read()
	require.Equal(t, []any{"identity_verification", "terms_of_service"}, c["currently_due"])
	require.Equal(t, []any{}, c["errors"])

	run.Store(&capability.RunOutcome{Status: "failed", FailureType: "identity_mismatch", Category: "terminal"})
	c = read()
	require.Equal(t, []any{}, c["currently_due"], "nothing is due while a terminal conclusion stands")
	require.Equal(t, []any{map[string]any{"code": "identity_mismatch", "requirement": "identity_verification",
		"reason": "Identity verification failed and cannot be retried."}}, c["errors"])

	run.Store(&capability.RunOutcome{Status: "failed", FailureType: "review_pending", Category: "review"})
	c = read()
	require.Equal(t, []any{"identity_verification", "terms_of_service"}, c["currently_due"])
	require.Equal(t, "review_pending", c["errors"].([]any)[0].(map[string]any)["code"])

	run.Store(&capability.RunOutcome{Status: "approved"})
	c = read()
	require.Equal(t, []any{"terms_of_service"}, c["currently_due"])
	require.Equal(t, []any{}, c["errors"])

	// The account shows the same derivation, in its capabilities and steps.
	acct := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Equal(t, c, capByName(acct["capabilities"], "kyc"))
	var idStep map[string]any
	for _, s := range acct["steps"].([]any) {
		if s.(map[string]any)["key"] == "id_verification" {
			idStep = s.(map[string]any)
		}
	}
	require.Equal(t, "completed", idStep["status"])
	require.Equal(t, []any{}, idStep["currently_due"])
}

func TestCapabilityAndAccountActivation(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification", "card_send"))
	require.Equal(t, "pending", a["status"])
	require.Equal(t, []any{"terms_of_service"}, capByName(a["capabilities"], "phone_verification")["currently_due"],
		"terms must be accepted before any capability turns active")

	r := f.sk.Patch("/v1/accounts/"+id(a), tos)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	requireAccountShape(t, u)
	require.Equal(t, "active", u["status"])
	require.Nil(t, u["blocked_reason"])
	pv := capByName(u["capabilities"], "phone_verification")
	require.Equal(t, "active", pv["status"])
	require.Equal(t, []any{}, pv["currently_due"])
	require.Equal(t, "pending", capByName(u["capabilities"], "card_send")["status"])

	act := listEvents(t, f.sk, "capability.activated")
	require.Len(t, act, 1)
	require.Equal(t, pv, act[0].object())
	acc := listEvents(t, f.sk, "account.activated")
	require.Len(t, acc, 1)
	require.Equal(t, u, acc[0].object())
	require.Len(t, listEvents(t, f.sk, "account.updated"), 1)

	// Disabling the only active capability leaves the account active.
	require.Equal(t, http.StatusOK, f.sk.Delete(capsPath(a)+"/card_send").Status)
	require.Equal(t, http.StatusOK, f.sk.Delete(capsPath(a)+"/phone_verification").Status)
	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Equal(t, "active", got["status"])
	require.Len(t, listEvents(t, f.sk, "account.activated"), 1)

	// An account created with everything satisfied is active at once.
	b := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	require.Equal(t, "active", b["status"])
	require.ElementsMatch(t, []string{"account.created", "account.activated"}, eventTypes(listEvents(t, f.sk, ""), id(b)))
}

func TestConcurrentDisableAndRequestKeepDependenciesLive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for range 12 {
		a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_verification"))
		var wg sync.WaitGroup
		var disable, request *testenv.Response
		start := make(chan struct{})
		wg.Add(2)
		go func() { defer wg.Done(); <-start; disable = f.sk.Delete(capsPath(a) + "/card_verification") }()
		go func() { defer wg.Done(); <-start; request = requestCaps(f.sk, a, "card_send") }()
		close(start)
		wg.Wait()
		require.Contains(t, []int{http.StatusOK, http.StatusUnprocessableEntity}, disable.Status, string(disable.Body))
		require.Equal(t, http.StatusCreated, request.Status, string(request.Body))
		st := capStatuses(f.sk.Get(capsPath(a)).JSON()["data"])
		require.Equal(t, "pending", st["card_send"])
		require.Equal(t, "pending", st["card_verification"], "a live card_send always has a live card_verification: %v", st)
		if disable.Status == http.StatusUnprocessableEntity {
			requireError(t, disable, http.StatusUnprocessableEntity, "capability_has_live_dependents", "name")
		}
	}
}

func TestConcurrentDisablesWriteOneEvent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	var wg sync.WaitGroup
	statuses := make([]int, 5)
	start := make(chan struct{})
	for i := range statuses {
		wg.Add(1)
		go func() { defer wg.Done(); <-start; statuses[i] = f.sk.Delete(capsPath(a) + "/kyc").Status }()
	}
	close(start)
	wg.Wait()
	require.Equal(t, []int{200, 200, 200, 200, 200}, statuses)
	require.Len(t, listEvents(t, f.sk, "capability.disabled"), 1)
}

func TestRequestingActiveOrDisabledCapabilities(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(acceptedTerms))

	// A new capability whose requirements are met turns active in the request.
	r := requestCaps(f.sk, a, "phone_verification")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pv := r.Array()[0]
	require.Equal(t, "active", pv["status"])
	require.Len(t, listEvents(t, f.sk, "capability.activated"), 1)
	require.Equal(t, "active", f.sk.Get("/v1/accounts/" + id(a)).JSON()["status"])

	// Requesting an active capability is a no-op.
	r = requestCaps(f.sk, a, "phone_verification")
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, []map[string]any{pv}, r.Array())
	updates := len(listEvents(t, f.sk, "account.updated"))

	// Requesting a disabled capability brings it back to pending; nothing
	// new was created, so the answer is 200.
	require.Equal(t, http.StatusOK, f.sk.Delete(capsPath(a)+"/phone_verification").Status)
	r = requestCaps(f.sk, a, "phone_verification")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	back := r.Array()[0]
	require.Equal(t, pv["id"], back["id"])
	require.Equal(t, "pending", back["status"], "a revival, like a reactivation, never returns active directly")
	require.Nil(t, back["disabled"])
	require.Len(t, listEvents(t, f.sk, "account.updated"), updates+1)

	// The next change to the account re-evaluates it.
	r = f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", capByName(r.JSON()["capabilities"], "phone_verification")["status"])
	require.Len(t, listEvents(t, f.sk, "capability.activated"), 2)
}

func TestConcurrentRequestsCreateOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	var wg sync.WaitGroup
	statuses := make([]int, 5)
	start := make(chan struct{})
	for i := range statuses {
		wg.Add(1)
		go func() { defer wg.Done(); <-start; statuses[i] = requestCaps(f.sk, a, "card_send").Status }()
	}
	close(start)
	wg.Wait()
	require.ElementsMatch(t, []int{201, 200, 200, 200, 200}, statuses)
	require.Equal(t, []string{"card_verification", "card_send"}, capNames(f.sk.Get(capsPath(a)).JSON()["data"]))
	require.Len(t, listEvents(t, f.sk, "account.updated"), 1)
}
