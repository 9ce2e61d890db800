package rest_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// listIDs GETs path and returns the ids of its data, in order.
func listIDs(t *testing.T, c *testenv.Client, path string) []string {
	t.Helper()
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
	body := r.JSON()
	require.Equal(t, sorted("meta", "data"), keys(body))
	out := []string{}
	for _, a := range body["data"].([]any) {
		out = append(out, id(a.(map[string]any)))
	}
	return out
}

// accountSet creates four accounts: an individual, a business, a disabled
// individual and a restricted individual, in that order.
type accountSet struct{ ind, biz, disabled, restricted map[string]any }

func newAccountSet(t *testing.T, f *fixture) accountSet {
	t.Helper()
	s := accountSet{
		ind: f.sk.CreateAccount(testenv.Individual().WithExternalID("ind")),
		biz: func() map[string]any {
			r := f.sk.Post("/v1/accounts", testenv.Business().WithExternalID("biz").
				WithBusiness(func(p *testenv.BusinessSpec) { p.DoingBusinessAs = "Difference Works" }).RESTBody())
			require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
			return r.JSON()
		}(),
		disabled: f.sk.CreateAccount(testenv.Individual().WithExternalID("gone").WithIndividual(func(p *testenv.IndividualSpec) {
			p.Name, p.Email = testenv.PersonName{First: "Charles", Last: "Babbage"}, "charles@example.com"
		})),
		restricted: f.sk.CreateAccount(testenv.Individual().WithExternalID("held").WithIndividual(func(p *testenv.IndividualSpec) {
			p.Name, p.Email = testenv.PersonName{First: "Mary", Middle: "Fairfax", Last: "Somerville"}, "Mary.Somerville@Example.com"
		})),
	}
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+id(s.disabled)).Status)
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/accounts/"+id(s.restricted)+"/restrict", nil).Status)
	return s
}

func TestListAccountsFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := newAccountSet(t, f)

	r := f.sk.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, r.Status)
	body := r.JSON()
	require.Equal(t, map[string]any{"page": float64(1), "url": "/v1/accounts", "has_more": false, "prev": nil, "next": nil}, body["meta"])
	for _, a := range body["data"].([]any) {
		requireAccountShape(t, a.(map[string]any))
	}
	// Newest first; disabled accounts hidden by default.
	require.Equal(t, []string{id(s.restricted), id(s.biz), id(s.ind)}, listIDs(t, f.sk, "/v1/accounts"))
	require.Equal(t, []string{id(s.restricted), id(s.disabled), id(s.biz), id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?include_disabled=true"))
	require.Equal(t, []string{id(s.restricted), id(s.biz), id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?include_disabled=false"))
	require.Equal(t, []string{id(s.disabled)}, listIDs(t, f.sk, "/v1/accounts?status=disabled"), "asking for disabled by status shows them")
	require.Equal(t, []string{id(s.restricted)}, listIDs(t, f.sk, "/v1/accounts?status=restricted"))
	require.Equal(t, []string{id(s.biz), id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?status=pending"))
	require.Empty(t, listIDs(t, f.sk, "/v1/accounts?status=active"))
	require.Equal(t, []string{id(s.biz)}, listIDs(t, f.sk, "/v1/accounts?type=business"))
	require.Equal(t, []string{id(s.restricted), id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?type=individual"))
	require.Equal(t, []string{id(s.disabled)}, listIDs(t, f.sk, "/v1/accounts?type=individual&status=disabled"))
	require.Equal(t, []string{id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?external_id=ind"))
	require.Empty(t, listIDs(t, f.sk, "/v1/accounts?external_id=gone"), "a disabled account stays hidden when found by external_id")
	require.Equal(t, []string{id(s.disabled)}, listIDs(t, f.sk, "/v1/accounts?external_id=gone&include_disabled=true"))
	require.Empty(t, listIDs(t, f.sk, "/v1/accounts?external_id=IND"), "external_id matches exactly")
	require.Equal(t, []string{id(s.ind)}, listIDs(t, f.sk, "/v1/accounts?type=individual&status=pending"))

	errs := requireValidation(t, f.sk.Get("/v1/accounts?status=closed&type=robot"), "status", "type")
	requireProblem(t, errs, "status", "must be one of: pending, active, restricted, disabled")
	requireProblem(t, errs, "type", "must be one of: individual, business")
	e := requireError(t, f.sk.Get("/v1/accounts?include_disabled=maybe"), http.StatusBadRequest, "parameter_invalid", "include_disabled")
	require.Equal(t, map[string]any{"include_disabled": []any{"must be true or false"}}, errorDetails(e)["errors"])
}

func TestListAccountsReadsInConstantStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_send"))
	one := f.sk.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, one.Status)
	for range 6 {
		f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc_prefill", "card_receive"))
	}
	many := f.sk.Get("/v1/accounts")
	require.Len(t, many.JSON()["data"], 7)
	require.Positive(t, one.Statements)
	require.Equal(t, one.Statements, many.Statements, "listing does not query per account")
	require.Equal(t, one.Statements, f.sk.Get("/v1/accounts/search?name=ada").Statements)
	// Listed accounts carry their capabilities like a retrieve does.
	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	list := many.JSON()["data"].([]any)
	require.Equal(t, got, list[len(list)-1])
}

func TestSearchAccounts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := newAccountSet(t, f)
	search := func(q url.Values) []string {
		t.Helper()
		return listIDs(t, f.sk, "/v1/accounts/search?"+q.Encode())
	}

	r := f.sk.Get("/v1/accounts/search?name=ada")
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, map[string]any{"page": float64(1), "url": "/v1/accounts/search", "has_more": false, "prev": nil, "next": nil}, r.JSON()["meta"])

	// Name: a substring of first, middle, last or business names, in any case.
	require.Equal(t, []string{id(s.ind)}, search(url.Values{"name": {"LOVE"}}))
	require.Equal(t, []string{id(s.ind)}, search(url.Values{"name": {"ada"}}))
	require.Equal(t, []string{id(s.restricted)}, search(url.Values{"name": {"fairfax"}}))
	require.Equal(t, []string{id(s.biz)}, search(url.Values{"name": {"analytical engines"}}))
	require.Equal(t, []string{id(s.biz)}, search(url.Values{"name": {"difference"}}), "doing_business_as counts as a name")
	require.Equal(t, []string{id(s.ind)}, search(url.Values{"name": {"Ada Lovelace"}}), "a full name matches")
	require.Equal(t, []string{id(s.restricted)}, search(url.Values{"name": {"mary fairfax somerville"}}))
	require.Empty(t, search(url.Values{"name": {"%"}}), "LIKE wildcards are literal")
	require.Empty(t, search(url.Values{"name": {"_"}}))
	require.Empty(t, search(url.Values{"name": {"nobody"}}))

	// Disabled accounts are found by search (only the list hides them).
	require.Equal(t, []string{id(s.disabled)}, search(url.Values{"name": {"babbage"}}))

	// E-mail: the whole address, any case.
	require.Equal(t, []string{id(s.restricted)}, search(url.Values{"email": {"mary.somerville@example.com"}}))
	require.Equal(t, []string{id(s.ind)}, search(url.Values{"email": {"ADA@Example.COM"}}))
	require.Equal(t, []string{id(s.biz)}, search(url.Values{"email": {"ops@engines.example"}}))
	require.Empty(t, search(url.Values{"email": {"ada@"}}))

	require.Equal(t, []string{id(s.biz)}, search(url.Values{"external_id": {"biz"}}))
	require.Equal(t, []string{id(s.restricted)}, search(url.Values{"status": {"restricted"}}))
	require.Equal(t, []string{id(s.biz)}, search(url.Values{"type": {"business"}}))
	require.Empty(t, search(url.Values{"type": {"business"}, "name": {"ada"}}), "filters combine")
	require.Equal(t, []string{id(s.restricted), id(s.disabled), id(s.biz), id(s.ind)}, search(url.Values{}))

	requireValidation(t, f.sk.Get("/v1/accounts/search?status=nope"), "status")
	requireValidation(t, f.sk.Get("/v1/accounts/search?type=nope"), "type")
}

// The terms' IP address and user agent are the merchant's consent evidence:
// secret keys see them, publishable keys do not.
func TestTermsEvidenceIsSecretKeyOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{
		Token: "tos_v1", IPAddress: "203.0.113.9", UserAgent: "Mozilla/5.0"}))
	tos := f.sk.Get("/v1/accounts/" + id(a)).JSON()["terms_of_service"].(map[string]any)
	require.Equal(t, "203.0.113.9", tos["ip_address"])
	require.Equal(t, "Mozilla/5.0", tos["user_agent"])

	tos = f.pk.Get("/v1/accounts/" + id(a)).JSON()["terms_of_service"].(map[string]any)
	require.Equal(t, map[string]any{"token": "tos_v1", "accepted": true, "accepted_at": tos["accepted_at"]}, tos)
}
