package rest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestUpdateMergesProfilePartially(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(map[string]string{"tier": "gold"}))
	before := a["profile"].(map[string]any)

	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"profile": map[string]any{"individual": map[string]any{
		"name":    map[string]any{"first_name": "Augusta", "middle_name": "Ada"},
		"address": map[string]any{"city": "Dallas", "line2": "Suite 5"},
		"ssn":     "111-22-3333",
	}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	requireAccountShape(t, u)
	require.Equal(t, map[string]any{"individual": map[string]any{
		"name":          map[string]any{"first_name": "Augusta", "middle_name": "Ada", "last_name": "Lovelace", "suffix": nil},
		"email":         "ada@example.com",
		"phone":         map[string]any{"number": "2001001695", "country_code": "1"},
		"ssn_last_four": "3333",
		"birthdate":     "1990-12-10",
		"address": map[string]any{"line_1": "1 Main St", "line_2": "Suite 5", "city": "Dallas", "state": "TX",
			"postal_code": "78701", "country": "US"},
	}}, u["profile"])
	require.Equal(t, map[string]any{"tier": "gold"}, u["metadata"], "unsent members stay")
	require.Equal(t, a["created"], u["created"])
	require.Greater(t, u["updated"], float64(0))
	require.NotContains(t, string(r.Body), "111-22-3333")
	require.Equal(t, u, f.sk.Get("/v1/accounts/"+id(a)).JSON(), "the update is stored")

	evs := listEvents(t, f.sk, "account.updated")
	require.Len(t, evs, 1)
	require.Equal(t, u, evs[0].object())
	require.Equal(t, map[string]any{"profile": before}, evs[0].previous(),
		"previous_attributes holds the replaced profile and nothing that did not change")
}

func TestUpdateMergesMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(map[string]string{"a": "1", "b": "2", "keep": "yes"}))

	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"a": nil, "b": "", "c": "3"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"keep": "yes", "c": "3"}, r.JSON()["metadata"], "null and empty remove a key")
	require.Equal(t, a["profile"], r.JSON()["profile"])

	evs := listEvents(t, f.sk, "account.updated")
	require.Len(t, evs, 1)
	require.Equal(t, map[string]any{"metadata": map[string]any{"a": "1", "b": "2", "keep": "yes"}}, evs[0].previous())

	// The 20-key limit applies to the merged result.
	full := map[string]any{}
	for i := range 18 {
		full[fmt.Sprintf("k%02d", i)] = "v"
	}
	r = f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": full})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, r.JSON()["metadata"], 20)
	errs := requireValidation(t, f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"one_more": "v"}}), "metadata")
	requireProblem(t, errs, "metadata", "must have at most 20 keys")
	r = f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"one_more": "v", "keep": nil}})
	require.Equal(t, http.StatusOK, r.Status, "removing a key makes room in the same request: %s", r.Body)
	require.Len(t, r.JSON()["metadata"], 20)
}

func TestUpdateExternalID(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithExternalID("one"))
	b := f.sk.CreateAccount(testenv.Individual())

	errs := requireValidation(t, f.sk.Patch("/v1/accounts/"+id(b), map[string]any{"external_id": "one"}), "external_id")
	requireProblem(t, errs, "external_id", "has already been taken by another account")

	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"external_id": ""})
	require.Equal(t, http.StatusOK, r.Status)
	require.Nil(t, r.JSON()["external_id"], "an empty external_id clears it")
	r = f.sk.Patch("/v1/accounts/"+id(b), map[string]any{"external_id": "one"})
	require.Equal(t, http.StatusOK, r.Status, "a released external_id can be taken: %s", r.Body)
	require.Equal(t, "one", r.JSON()["external_id"])

	evs := listEvents(t, f.sk, "account.updated")
	require.Len(t, evs, 2, "the refused update wrote no event")
	require.Equal(t, map[string]any{"external_id": "one"}, evs[0].previous())
	require.Equal(t, map[string]any{"external_id": nil}, evs[1].previous())
}

func TestUpdateWithoutChangeWritesNoEvent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(map[string]string{"k": "v"}))
	for _, body := range []any{nil, map[string]any{}, map[string]any{"metadata": map[string]any{"k": "v"}},
		map[string]any{"profile": map[string]any{"individual": map[string]any{"email": "ada@example.com"}}}} {
		r := f.sk.Patch("/v1/accounts/"+id(a), body)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		require.Equal(t, a["profile"], r.JSON()["profile"])
		require.Equal(t, a["metadata"], r.JSON()["metadata"])
	}
	require.Empty(t, listEvents(t, f.sk, "account.updated"))
}

func TestUpdateValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	path := "/v1/accounts/" + id(a)

	r := f.sk.Patch(path, map[string]any{
		"profile":  map[string]any{"business": map[string]any{"legal_business_name": "X"}, "individual": map[string]any{"email": "bad", "birthdate": "1800-01-01"}},
		"metadata": map[string]any{"k": "v\x00"},
	})
	errs := requireValidation(t, r, "profile.business", "profile.individual.email", "profile.individual.birthdate", "metadata.k")
	requireProblem(t, errs, "profile.business", "is not allowed for an individual account")
	requireProblem(t, errs, "profile.individual.birthdate", "must be after 1900-01-01")

	requireError(t, f.sk.Patch(path, `{"profile": {"individual": {"email": true}}}`), http.StatusBadRequest, "parameter_invalid", "profile.individual.email")
	requireError(t, f.sk.Patch(path, `{"profile":`), http.StatusBadRequest, "invalid_json", "")

	// Business accounts refuse individual profiles.
	rb := f.sk.Post("/v1/accounts", testenv.Business().RESTBody())
	require.Equal(t, http.StatusCreated, rb.Status)
	requireValidation(t, f.sk.Patch("/v1/accounts/"+id(rb.JSON()), map[string]any{"profile": map[string]any{"individual": map[string]any{}}}), "profile.individual")
	r = f.sk.Patch("/v1/accounts/"+id(rb.JSON()), map[string]any{"profile": map[string]any{"business": map[string]any{"doing_business_as": "AE", "address": map[string]any{"city": "Aurora"}}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	biz := r.JSON()["profile"].(map[string]any)["business"].(map[string]any)
	require.Equal(t, "Analytical Engines LLC", biz["legal_business_name"])
	require.Equal(t, "AE", biz["doing_business_as"])
	require.Equal(t, "Aurora", biz["address"].(map[string]any)["city"])
	require.Equal(t, "2 Market St", biz["address"].(map[string]any)["line_1"])

	require.Len(t, listEvents(t, f.sk, "account.updated"), 1, "only the accepted business update wrote an event")
	require.Equal(t, a["profile"], f.sk.Get(path).JSON()["profile"], "refused updates changed nothing")
}

func TestUpdateAcceptsTermsOfService(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	require.Equal(t, []any{"phone_verification", "terms_of_service"}, capByName(a["capabilities"], "phone_verification")["currently_due"])

	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"terms_of_service": map[string]any{"token": "tos_1"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	tos := u["terms_of_service"].(map[string]any)
	require.Equal(t, "tos_1", tos["token"])
	require.Equal(t, true, tos["accepted"])
	requireISO(t, tos["accepted_at"], "accepted_at")
	require.Equal(t, []any{"phone_verification"}, capByName(u["capabilities"], "phone_verification")["currently_due"],
		"currently_due is derived again")
	require.Equal(t, "pending", u["status"])

	evs := listEvents(t, f.sk, "account.updated")
	require.Len(t, evs, 1)
	prev := evs[0].previous()
	require.Contains(t, prev, "terms_of_service")
	require.Nil(t, prev["terms_of_service"])
}

func TestUpdateDisabledAccountIsInvalidState(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+id(a)).Status)
	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}})
	e := requireError(t, r, http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, "The account is disabled and cannot be updated", e["message"])
	require.Equal(t, []string{"message"}, keys(errorDetails(e)))
	require.Empty(t, listEvents(t, f.sk, "account.updated"))
}

// An update that changes nothing writes nothing: no event, and `updated`
// still tells when the account last changed.
func TestNoOpUpdateKeepsUpdated(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(map[string]string{"k": "v"}))
	f.env.Clock.Advance(time.Hour)
	r := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, a["updated"], r.JSON()["updated"])
	require.Zero(t, countType(listEvents(t, f.sk, "account.updated"), "account.updated"))

	r = f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "w"}})
	require.Greater(t, requireInt(t, r.JSON()["updated"], "updated"), requireInt(t, a["updated"], "updated"))
}
