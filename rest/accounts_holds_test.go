package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// phoneVerified pretends every account's phone was verified.
func phoneVerified() testenv.Option {
	return testenv.WithFacts(func(_ *models.Account, f *capability.Facts) { f.PhoneVerified = true })
}

var tos = map[string]any{"terms_of_service": map[string]any{"token": "tos_1"}}

// acceptedTerms is the acceptance tos sends, for an account created with it.
var acceptedTerms = testenv.TermsSpec{Token: "tos_1"}

func TestDisableAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	path := "/v1/accounts/" + id(a)

	r := f.sk.Delete(path)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	d := r.JSON()
	requireAccountShape(t, d)
	require.Equal(t, "disabled", d["status"])
	require.Equal(t, "disabled", d["blocked_reason"])
	require.Equal(t, []any{}, d["restricted_by"])
	require.Equal(t, a["profile"], d["profile"])
	require.Equal(t, a["capabilities"], d["capabilities"], "disabling the account leaves its capabilities as they are")
	require.Equal(t, d, f.sk.Get(path).JSON())

	evs := listEvents(t, f.sk, "account.disabled")
	require.Len(t, evs, 1)
	require.Equal(t, d, evs[0].object())
	require.Equal(t, map[string]any{"status": "pending", "blocked_reason": nil}, evs[0].previous())

	// Again: a no-op answering the account as it is, with no second event.
	again := f.sk.Delete(path)
	require.Equal(t, http.StatusOK, again.Status)
	require.Equal(t, d, again.JSON())
	require.Len(t, listEvents(t, f.sk, "account.disabled"), 1)

	// A disabled account refuses holds, updates and capability requests.
	for _, r := range []*testenv.Response{
		f.sk.Post(path+"/restrict", nil),
		f.sk.Post(path+"/unrestrict", nil),
		f.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "v"}}),
		f.sk.Post(path+"/capabilities", map[string]any{"capabilities": []string{"kyb"}}),
	} {
		requireError(t, r, http.StatusUnprocessableEntity, "invalid_state", "")
	}
	require.Equal(t, d, f.sk.Get(path).JSON())
}

func TestRestrictAndUnrestrict(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	path := "/v1/accounts/" + id(a)

	r := f.sk.Post(path+"/restrict", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	held := r.JSON()
	requireAccountShape(t, held)
	require.Equal(t, "restricted", held["status"])
	require.Equal(t, []any{"merchant"}, held["restricted_by"])
	require.Equal(t, "merchant_restricted", held["blocked_reason"])
	require.Equal(t, held, f.sk.Get(path).JSON())

	evs := listEvents(t, f.sk, "account.restricted")
	require.Len(t, evs, 1)
	require.Equal(t, held, evs[0].object())
	require.Equal(t, map[string]any{"status": "pending", "blocked_reason": nil, "restricted_by": []any{}}, evs[0].previous())

	again := f.sk.Post(path+"/restrict", nil)
	require.Equal(t, http.StatusOK, again.Status)
	require.Equal(t, held, again.JSON(), "restricting twice is a no-op")
	require.Len(t, listEvents(t, f.sk, "account.restricted"), 1)

	r = f.sk.Post(path+"/unrestrict", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	free := r.JSON()
	require.Equal(t, "pending", free["status"], "the account returns to the status its capabilities give")
	require.Equal(t, []any{}, free["restricted_by"])
	require.Nil(t, free["blocked_reason"])
	upd := listEvents(t, f.sk, "account.updated")
	require.Len(t, upd, 1)
	require.Equal(t, map[string]any{"status": "restricted", "blocked_reason": "merchant_restricted", "restricted_by": []any{"merchant"}}, upd[0].previous())

	// Unrestricting an account the merchant does not hold changes nothing.
	none := f.sk.Post(path+"/unrestrict", nil)
	require.Equal(t, http.StatusOK, none.Status)
	require.Equal(t, free, none.JSON())
	require.Len(t, listEvents(t, f.sk, "account.updated"), 1)

	// A body is ignored (the operations take none).
	require.Equal(t, http.StatusOK, f.sk.Post(path+"/restrict", map[string]any{"reason": "x"}).Status)

	// Disabling a restricted account reports disabled.
	d := f.sk.Delete(path).JSON()
	require.Equal(t, "disabled", d["status"])
	require.Equal(t, "disabled", d["blocked_reason"])
}

func TestUnrestrictLiftsOnlyTheMerchantHold(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	b := f.sk.CreateAccount(testenv.Individual())
	f.exec(t, `UPDATE accounts SET restricted_by = '{platform}', service_blocked_reason = 'fraud_blocked', status = 'restricted' WHERE id = ?`, id(a))
	f.exec(t, `UPDATE accounts SET restricted_by = '{platform}', status = 'restricted' WHERE id = ?`, id(b))
	path := "/v1/accounts/" + id(a)

	got := f.sk.Get(path).JSON()
	requireAccountShape(t, got)
	require.Equal(t, "restricted", got["status"])
	require.Equal(t, []any{"platform"}, got["restricted_by"])
	require.Equal(t, "fraud_blocked", got["blocked_reason"])
	require.Equal(t, "platform_restricted", f.sk.Get("/v1/accounts/" + id(b)).JSON()["blocked_reason"])

	// The merchant's unrestrict cannot lift the platform's hold.
	r := f.sk.Post(path+"/unrestrict", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, got, r.JSON())

	// Both parties hold: the service's reason is reported.
	r = f.sk.Post(path+"/restrict", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	both := r.JSON()
	require.Equal(t, "restricted", both["status"])
	require.ElementsMatch(t, []any{"platform", "merchant"}, both["restricted_by"])
	require.Equal(t, "fraud_blocked", both["blocked_reason"])
	r = f.sk.Post("/v1/accounts/"+id(b)+"/restrict", nil)
	require.Equal(t, "platform_restricted", r.JSON()["blocked_reason"])

	// Lifting the merchant hold leaves the platform's in place.
	r = f.sk.Post(path+"/unrestrict", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	after := r.JSON()
	require.Equal(t, "restricted", after["status"])
	require.Equal(t, []any{"platform"}, after["restricted_by"])
	require.Equal(t, "fraud_blocked", after["blocked_reason"])
	require.Equal(t, after, f.sk.Get(path).JSON())
}

func TestUnrestrictReturnsAnActiveAccountToActive(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms))
	require.Equal(t, "active", a["status"])
	path := "/v1/accounts/" + id(a)

	require.Equal(t, "restricted", f.sk.Post(path+"/restrict", nil).JSON()["status"])
	free := f.sk.Post(path+"/unrestrict", nil).JSON()
	require.Equal(t, "active", free["status"])
	require.Nil(t, free["blocked_reason"])
	// Events of one request share their timestamp, so only the set is
	// asserted.
	require.ElementsMatch(t, []string{"account.created", "account.activated", "account.restricted", "account.updated"},
		eventTypes(listEvents(t, f.sk, ""), id(a)))
	require.Len(t, listEvents(t, f.sk, "account.activated"), 1, "unrestrict does not announce a second activation")
}

func TestAccountActivatedWhileRestrictedActivatesOnUnrestrict(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	path := "/v1/accounts/" + id(a)
	require.Equal(t, http.StatusOK, f.sk.Post(path+"/restrict", nil).Status)

	// The capability activates while the account is held: the hold wins.
	u := f.sk.Patch(path, tos).JSON()
	require.Equal(t, "active", capByName(u["capabilities"], "phone_verification")["status"])
	require.Equal(t, "restricted", u["status"])
	require.Empty(t, listEvents(t, f.sk, "account.activated"))

	// Lifting the hold activates the account, and says so once.
	free := f.sk.Post(path+"/unrestrict", nil).JSON()
	require.Equal(t, "active", free["status"])
	activated := listEvents(t, f.sk, "account.activated")
	require.Len(t, activated, 1)
	require.Equal(t, free, activated[0].object())

	require.Equal(t, http.StatusOK, f.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "v"}}).Status)
	require.Len(t, listEvents(t, f.sk, "account.activated"), 1, "a later update does not announce the activation again")
}

func TestHoldOperationsOnUnknownAccounts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const missing = "019bc186-de02-7888-a0ba-4ef4a7dc05db"
	for _, r := range []*testenv.Response{
		f.sk.Delete("/v1/accounts/" + missing),
		f.sk.Post("/v1/accounts/"+missing+"/restrict", nil),
		f.sk.Post("/v1/accounts/"+missing+"/unrestrict", nil),
		f.sk.Post("/v1/accounts/not-an-id/restrict", nil),
	} {
		requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	}
}
