package rest_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var ownerKeys = sorted("id", "object", "account_id", "status", "first_name", "middle_name", "last_name", "suffix",
	"email", "roles", "percent_ownership", "created", "updated", "livemode")

func ownersPath(accountID string) string { return "/v1/accounts/" + accountID + "/beneficial_owners" }

func TestBeneficialOwnerCreateShapesAndStatuses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business().WithCapabilities("kyb"))
	path := ownersPath(id(acct))

	r := f.sk.Post(path, testenv.BeneficialOwner(60, "owner", "controller").RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	full := r.JSON()
	require.Equal(t, ownerKeys, keys(full))
	require.Equal(t, "beneficial_owner", full["object"])
	require.Equal(t, "completed", full["status"])
	require.Equal(t, id(acct), full["account_id"])
	require.Equal(t, []any{"owner", "controller"}, full["roles"])
	require.Equal(t, 60.0, full["percent_ownership"])
	require.Equal(t, false, full["livemode"])
	require.NotContains(t, string(r.Body), "6789", "no part of the SSN is rendered")
	requireInt(t, full["created"], "created")

	r = f.sk.Post(path, map[string]any{"invite": true, "first_name": "Alan", "last_name": "Turing",
		"email": "alan@example.com", "roles": []string{"controller"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	invited := r.JSON()
	require.Equal(t, "invite_sent", invited["status"])
	require.Nil(t, invited["percent_ownership"])

	r = f.sk.Post(path, map[string]any{"first_name": "Ada", "last_name": "Byron", "email": "ada@example.com",
		"roles": []string{"owner"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	partial := r.JSON()
	require.Equal(t, "pending", partial["status"], "created directly with part of the details")

	// The list holds owners created directly; a pending invitation is not
	// listed but is retrievable by id.
	list := f.sk.Get(path)
	require.Equal(t, http.StatusOK, list.Status, string(list.Body))
	data := list.JSON()["data"].([]any)
	require.Len(t, data, 2)
	require.Equal(t, id(full), id(data[0].(map[string]any)))
	require.Equal(t, id(partial), id(data[1].(map[string]any)))
	got := f.sk.Get(path + "/" + id(invited))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, "invite_sent", got.JSON()["status"])

	// Completing an invited owner's details lists them.
	r = f.sk.Patch(path+"/"+id(invited), map[string]any{"dob": "1912-06-23", "ssn": "987654321",
		"address_line1": "1 Bletchley Park", "city": "Milton Keynes", "state": "BKM", "postal_code": "MK3 6EB"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "completed", r.JSON()["status"])
	require.Len(t, f.sk.Get(path).JSON()["data"].([]any), 3)
}

func TestBeneficialOwnerValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business())
	path := ownersPath(id(acct))

	r := f.sk.Post(path, map[string]any{})
	requireValidation(t, r, "first_name", "last_name", "email", "roles")
	r = f.sk.Post(path, map[string]any{"first_name": " ", "last_name": "X", "email": "nope", "roles": []string{"ceo", "owner"},
		"dob": "31/12/1990", "ssn": "12", "percent_ownership": 101})
	errs := requireValidation(t, r, "first_name", "email", "roles", "dob", "ssn", "percent_ownership")
	requireProblem(t, errs, "roles", "must be owner or controller")
	r = f.sk.Post(path, map[string]any{"first_name": "A", "last_name": "B", "email": "a@b.example", "roles": []string{}})
	requireValidation(t, r, "roles")
	r = f.sk.Post(path, `{"first_name": 5}`)
	requireError(t, r, http.StatusBadRequest, "parameter_invalid", "first_name")
	require.Empty(t, f.sk.Get(path).JSON()["data"], "a refused create changes nothing")

	// Unknown account, another tenant's account, malformed ids: 404.
	requireError(t, f.sk.Post(ownersPath("not-a-uuid"), testenv.BeneficialOwner(10, "owner").RESTBody()), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post(path, testenv.BeneficialOwner(10, "owner").RESTBody()), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get(path), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get(path+"/not-a-uuid"), http.StatusNotFound, "resource_missing", "id")
	// Secret key only.
	requireError(t, f.pk.Get(path), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post(path, testenv.BeneficialOwner(10, "owner").RESTBody()), http.StatusForbidden, "forbidden", "")
}

func TestBeneficialOwnerPatchSemantics(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business())
	path := ownersPath(id(acct))
	o := f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(50, "owner", "controller"))
	opath := path + "/" + id(o)

	// Blank identity and address values are ignored; roles are replaced.
	r := f.sk.Patch(opath, map[string]any{"email": "", "ssn": " ", "city": "", "phone_number": "",
		"roles": []string{"controller"}, "first_name": "Amazing Grace"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := r.JSON()
	require.Equal(t, "grace@example.com", got["email"])
	require.Equal(t, []any{"controller"}, got["roles"])
	require.Equal(t, "Amazing Grace", got["first_name"])
	require.Equal(t, "completed", got["status"], "status never moves back")
	require.Equal(t, 50.0, got["percent_ownership"], "omitted members stay")

	requireValidation(t, f.sk.Patch(opath, map[string]any{"roles": []string{}}), "roles")
	requireValidation(t, f.sk.Patch(opath, map[string]any{"last_name": ""}), "last_name")

	// An owner of another account is not found under this one.
	other := f.sk.CreateAccount(testenv.Business())
	requireError(t, f.sk.Patch(ownersPath(id(other))+"/"+id(o), map[string]any{"first_name": "X"}),
		http.StatusNotFound, "resource_missing", "id")
}

func TestBeneficialOwnerInvitations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business())
	path := ownersPath(id(acct))
	invited := f.sk.Post(path, map[string]any{"invite": true, "first_name": "Alan", "last_name": "Turing",
		"email": "alan@example.com", "roles": []string{"controller"}}).JSON()
	direct := f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(10, "owner"))

	r := f.sk.Post(path+"/"+id(invited)+"/resend_invite", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, invited, r.JSON(), "the owner is answered unchanged")
	requireError(t, f.sk.Post(path+"/"+id(direct)+"/resend_invite", nil), http.StatusUnprocessableEntity, "invalid_state", "")

	// An update never sends an invitation: a direct owner stays without one.
	f.sk.Patch(path+"/"+id(direct), map[string]any{"first_name": "G."})
	requireError(t, f.sk.Post(path+"/"+id(direct)+"/resend_invite", nil), http.StatusUnprocessableEntity, "invalid_state", "")

	// Delete: 204 without a body; the invitation goes with the owner.
	r = f.sk.Delete(path + "/" + id(invited))
	require.Equal(t, http.StatusNoContent, r.Status)
	require.Empty(t, r.Body)
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM beneficial_owners WHERE invitation_hash IS NOT NULL").Scan(t.Context(), &n))
	require.Zero(t, n, "no invitation remains usable")
	requireError(t, f.sk.Post(path+"/"+id(invited)+"/resend_invite", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Delete(path+"/"+id(invited)), http.StatusNotFound, "resource_missing", "id")
}

func TestBeneficialOwnerRosterConfirm(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business().WithCapabilities("kyb").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}))
	require.Contains(t, capByName(acct["capabilities"], "kyb")["currently_due"], "beneficial_owners_collected")
	path := ownersPath(id(acct))

	// Empty roster: every rule at once.
	r := f.sk.Post(path+"/confirm", nil)
	errs := requireValidation(t, r, "beneficial_owners")
	requireProblem(t, errs, "beneficial_owners", "must include at least one person with the owner role")
	requireProblem(t, errs, "beneficial_owners", "must include at least one person with the controller role")

	a := f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(70, "owner"))
	f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(40, "owner", "controller"))
	errs = requireValidation(t, f.sk.Post(path+"/confirm", nil), "beneficial_owners")
	requireProblem(t, errs, "beneficial_owners", "combined percent_ownership must be at most 100 (it is 110)")

	f.sk.Patch(path+"/"+id(a), map[string]any{"percent_ownership": 60})
	r = f.sk.Do(http.MethodPost, path+"/confirm", nil, http.Header{"User-Agent": {"roster-test/1.0"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	confirmed := r.JSON()
	require.Equal(t, accountKeys, keys(confirmed))
	kyb := capByName(confirmed["capabilities"], "kyb")
	require.Equal(t, "active", kyb["status"], string(r.Body))

	var ua, ip string
	require.NoError(t, f.env.DB.Bun.NewRaw(
		"SELECT verification #>> '{owners_confirmed,user_agent}', verification #>> '{owners_confirmed,ip_address}' FROM accounts WHERE id = ?",
		id(acct)).Scan(t.Context(), &ua, &ip))
	require.Equal(t, "roster-test/1.0", ua)
	require.Equal(t, "127.0.0.1", ip)

	// The roster stays editable, and each confirm stamps it again.
	first := stampOf(t, f, id(acct))
	f.env.Clock.Advance(60_000_000_000)
	f.sk.Delete(path + "/" + id(a))
	require.Equal(t, http.StatusOK, f.sk.Post(path+"/confirm", nil).Status)
	require.NotEqual(t, first, stampOf(t, f, id(acct)))
}

func stampOf(t *testing.T, f *fixture, accountID string) string {
	t.Helper()
	var at string
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT verification #>> '{owners_confirmed,at}' FROM accounts WHERE id = ?",
		accountID).Scan(t.Context(), &at))
	return at
}

func TestBeneficialOwnerConcurrentConfirms(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Business().WithCapabilities("kyb"))
	path := ownersPath(id(acct))
	f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(100, "owner", "controller"))
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Do(http.MethodPost, path+"/confirm", nil,
				http.Header{"User-Agent": {fmt.Sprintf("agent-%d", i)}}).Status
		}()
	}
	wg.Wait()
	require.Equal(t, []int{http.StatusOK, http.StatusOK}, statuses)
	var ua string
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT verification #>> '{owners_confirmed,user_agent}' FROM accounts WHERE id = ?",
		id(acct)).Scan(t.Context(), &ua))
	require.Contains(t, []string{"agent-0", "agent-1"}, ua, "one certification stands whole")
	events := listEvents(t, f.sk, "account.updated")
	require.LessOrEqual(t, countType(events, "account.updated"), 1, "the second confirm changes nothing rendered")
}
