package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var customerKeys = sorted("id", "object", "name", "email", "phone", "description", "status", "date_of_birth",
	"payment_methods", "billing_address", "shipping_address", "metadata", "created", "updated", "livemode", "test_clock")

func TestCreateCustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := merge(testenv.Customer().RESTBody(), map[string]any{"ssn": "123-45-6789",
		"billing_address":  map[string]any{"line_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "us"},
		"shipping_address": map[string]any{"line1": "2 Side St", "country": "US"},
		"metadata":         map[string]any{"crm": "42"}})
	r := f.sk.Post("/v1/customers", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	c := r.JSON()
	require.Equal(t, customerKeys, keys(c))
	require.Equal(t, "customer", c["object"])
	require.Equal(t, "Grace Hopper", c["name"])
	require.Equal(t, "grace@example.com", c["email"])
	require.Equal(t, "+12005550101", c["phone"], "phones are stored in E.164")
	require.Equal(t, "active", c["status"])
	require.Equal(t, "1906-12-09", c["date_of_birth"])
	require.Equal(t, []any{}, c["payment_methods"])
	require.Equal(t, map[string]any{"crm": "42"}, c["metadata"])
	require.Equal(t, false, c["livemode"])
	require.Equal(t, testenv.Start.Unix(), requireInt(t, c["created"], "created"))
	billing := c["billing_address"].(map[string]any)
	require.Equal(t, sorted("id", "line_1", "city", "state", "postal_code", "country", "livemode", "type"), keys(billing),
		"a line the address does not have is left out")
	require.Equal(t, "billing", billing["type"])
	require.Equal(t, "US", billing["country"])
	require.Equal(t, "shipping", c["shipping_address"].(map[string]any)["type"])
	require.Equal(t, "2 Side St", c["shipping_address"].(map[string]any)["line_1"])

	// The SSN is never returned, nor kept in the event.
	evs := listEvents(t, f.sk, "")
	for _, s := range []string{string(r.Body), jsonString(evs)} {
		require.NotContains(t, s, "ssn")
		require.NotContains(t, s, "6789")
	}
	require.Len(t, evs, 1)
	require.Equal(t, "customer.created", evs[0].Type)
	require.Equal(t, c, evs[0].object())

	got := f.sk.Get("/v1/customers/" + id(c))
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, c, got.JSON())
}

func TestCreateCustomerValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/customers", map[string]any{"name": strings.Repeat("n", 101), "phone": "12",
		"ssn": "12-345", "date_of_birth": "2999-01-01", "billing_address": map[string]any{"country": "USA"},
		"metadata": map[string]any{strings.Repeat("k", 41): "v"}})
	errs := requireValidation(t, r, "email", "name", "phone", "ssn", "date_of_birth", "billing_address.country",
		"metadata."+strings.Repeat("k", 41))
	requireProblem(t, errs, "email", "is required")
	requireProblem(t, errs, "date_of_birth", "must not be in the future")

	requireValidation(t, f.sk.Post("/v1/customers", map[string]any{"email": "not-an-email"}), "email")
	requireError(t, f.sk.Post("/v1/customers", map[string]any{"email": 5}), http.StatusBadRequest, "parameter_invalid", "email")
	require.Empty(t, listEvents(t, f.sk, ""), "a refused create changes nothing")

	// Both SSN forms of the spec are accepted.
	for _, ssn := range []string{"123-45-6789", "1234567890"} {
		r := f.sk.Post("/v1/customers", map[string]any{"email": "a@example.com", "ssn": ssn})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	}
}

func TestCustomerCredentialsAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	requireError(t, f.pk.Post("/v1/customers", testenv.Customer().RESTBody()), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/customers/"+id(c)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.env.Client("").Get("/v1/customers"), http.StatusUnauthorized, "authentication_required", "")
	// The other mode and another merchant see a 404.
	requireError(t, f.live.Get("/v1/customers/"+id(c)), http.StatusNotFound, "resource_missing", "id")
	_, keys := f.env.NewMerchant(testAuthMerchant("Other"))
	other := f.env.Client(keys.Sandbox.Secret)
	for _, r := range []*testenv.Response{
		other.Get("/v1/customers/" + id(c)),
		other.Patch("/v1/customers/"+id(c), map[string]any{"name": "x"}),
		other.Post("/v1/customers/"+id(c)+"/block", nil),
		other.Delete("/v1/customers/" + id(c)),
	} {
		requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	}
	require.Len(t, listOf(t, other, "/v1/customers"), 0)
	requireError(t, f.sk.Get("/v1/customers/not-a-uuid"), http.StatusNotFound, "resource_missing", "id")
}

func TestUpdateCustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.CustomerSpec{Email: "a@example.com", SSN: "123-45-6789", DateOfBirth: "1980-01-02"})
	f.env.Clock.Advance(timeSecond)
	r := f.sk.Patch("/v1/customers/"+id(c), map[string]any{"name": "Ada", "phone": "+44 20 7946 0958",
		"billing_address": map[string]any{"city": "London"}, "metadata": map[string]any{"a": "1"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	require.Equal(t, "Ada", u["name"])
	require.Equal(t, "+442079460958", u["phone"])
	require.Equal(t, "London", u["billing_address"].(map[string]any)["city"])
	require.Greater(t, requireInt(t, u["updated"], "updated"), c.Updated.Unix())

	// ssn and date_of_birth cannot be removed once set; both problems at once.
	errs := requireValidation(t, f.sk.Patch("/v1/customers/"+id(c), map[string]any{"ssn": "", "date_of_birth": ""}),
		"ssn", "date_of_birth")
	requireProblem(t, errs, "ssn", "cannot be removed once set")
	// null leaves them as they are; a new value replaces them.
	r = f.sk.Patch("/v1/customers/"+id(c), map[string]any{"ssn": nil, "date_of_birth": "1981-02-03"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "1981-02-03", r.JSON()["date_of_birth"])
	require.NotContains(t, string(r.Body), "ssn")

	evs := listEvents(t, f.sk, "customer.updated")
	require.Len(t, evs, 2)
	require.Equal(t, map[string]any{"name": nil, "phone": nil, "billing_address": nil, "metadata": map[string]any{}},
		evs[0].previous())
	require.Equal(t, map[string]any{"date_of_birth": "1980-01-02"}, evs[1].previous())

	// An update that changes nothing writes nothing.
	r = f.sk.Patch("/v1/customers/"+id(c), map[string]any{"name": "Ada"})
	require.Equal(t, http.StatusOK, r.Status)
	require.Len(t, listEvents(t, f.sk, "customer.updated"), 2)
}

func TestListAndSearchCustomers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateCustomer(testenv.CustomerSpec{Name: "Ada Lovelace", Email: "Ada@Example.com", Phone: "2005550101"})
	b := f.sk.CreateCustomer(testenv.CustomerSpec{Name: "Alan Turing", Email: "alan@example.com"})
	f.env.Clock.Advance(10 * timeSecond)
	c := f.sk.CreateCustomer(testenv.CustomerSpec{Name: "Grace Hopper", Email: "grace@navy.example"})

	require.Equal(t, []string{id(c), id(b), id(a)}, ids(listOf(t, f.sk, "/v1/customers")))
	require.Equal(t, []string{id(a)}, ids(listOf(t, f.sk, "/v1/customers?email=ada@example.com")), "email filter ignores case")

	for path, want := range map[string][]string{
		"/v1/customers/search?q=example.com":                                  {id(b), id(a)},
		"/v1/customers/search?q=LOVE":                                         {id(a)},
		"/v1/customers/search?q=(200)%20555-0101":                             {id(a)},
		"/v1/customers/search?name=a%20t":                                     {},
		"/v1/customers/search?name=turing":                                    {id(b)},
		"/v1/customers/search?email=GRACE@navy.example":                       {id(c)},
		"/v1/customers/search?phone=%2B12005550101":                           {id(a)},
		"/v1/customers/search?created_after=" + itoa(testenv.Start.Unix()+5):  {id(c)},
		"/v1/customers/search?created_before=" + itoa(testenv.Start.Unix()+5): {id(b), id(a)},
	} {
		r := f.sk.Get(path)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		var body struct {
			Meta map[string]any   `json:"meta"`
			Data []map[string]any `json:"data"`
		}
		r.Decode(&body)
		require.Equal(t, "/v1/customers/search", body.Meta["url"])
		require.Equal(t, want, ids(body.Data), path)
	}
	requireError(t, f.sk.Get("/v1/customers/search?created_before=yesterday"), http.StatusBadRequest, "parameter_invalid", "created_before")

	// Pagination meta.
	r := f.sk.Get("/v1/customers?per_page=2")
	page := r.JSON()
	require.Equal(t, map[string]any{"page": float64(1), "url": "/v1/customers", "has_more": true, "prev": nil, "next": float64(2)}, page["meta"])
	require.Len(t, page["data"], 2)
}

func TestBlockAndUnblockCustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	pm := f.sk.CreateCard(id(c), testenv.Visa)

	r := f.sk.Post("/v1/customers/"+id(c)+"/block", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	blocked := r.JSON()
	require.Equal(t, "blocked", blocked["status"])
	methods := blocked["payment_methods"].([]any)
	require.Len(t, methods, 1)
	require.Equal(t, "blocked", methods[0].(map[string]any)["status"], "blocking blocks every payment method")
	require.Equal(t, "blocked", f.sk.Get("/v1/payment_methods/" + id(pm)).JSON()["status"])

	// Blocking again changes nothing.
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/customers/"+id(c)+"/block", nil).Status)
	require.Len(t, listEvents(t, f.sk, "customer.blocked"), 1)

	r = f.sk.Post("/v1/customers/"+id(c)+"/unblock", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", r.JSON()["status"])
	require.Equal(t, "active", f.sk.Get("/v1/payment_methods/" + id(pm)).JSON()["status"])

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"customer.created", "customer.blocked", "customer.unblocked"}, eventTypes(evs, id(c)))
	require.Equal(t, []string{"payment_method.created", "payment_method.updated", "payment_method.updated"},
		eventTypes(evs, id(pm)))
	upd := listEvents(t, f.sk, "payment_method.updated")
	require.Equal(t, map[string]any{"status": "active"}, upd[0].previous())
}

func TestDeleteCustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	pm := f.sk.CreateCard(id(c), testenv.Visa)

	r := f.sk.Delete("/v1/customers/" + id(c))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Subset(t, r.JSON(), map[string]any{"id": id(c), "object": "customer", "deleted": true},
		"the spec's members (and the SDKs' beside them: TestDeletedCustomerAnswersWhatTheSDKsBuildFrom)")

	// Still retrievable, as a subset with deleted true.
	got := f.sk.Get("/v1/customers/" + id(c)).JSON()
	require.Equal(t, sorted("id", "object", "deleted", "livemode", "created", "updated"), keys(got))
	require.Equal(t, true, got["deleted"])

	// Card details removed, the method detached.
	p := f.sk.Get("/v1/payment_methods/" + id(pm)).JSON()
	require.Equal(t, "detached", p["status"])
	card := p["card"].(map[string]any)
	require.Nil(t, card["exp_month"])
	require.Nil(t, card["exp_year"])
	require.Equal(t, "4242", card["last_four"])

	// Further operations are refused; a second delete answers the same.
	requireError(t, f.sk.Patch("/v1/customers/"+id(c), map[string]any{"name": "x"}), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/customers/"+id(c)+"/block", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/payment_methods/"+id(f.sk.CreateCard("", testenv.Visa))+"/attach",
		map[string]any{"customer": id(c)}), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(c)).Status)
	require.Len(t, listEvents(t, f.sk, "customer.deleted"), 1)
	require.Empty(t, listOf(t, f.sk, "/v1/customers"), "deleted customers are not listed")
}
