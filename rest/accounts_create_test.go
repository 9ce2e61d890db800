package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestCreateIndividualAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/accounts", testenv.Individual().WithMetadata(map[string]string{"order": "42"}).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	a := r.JSON()
	requireAccountShape(t, a)

	require.Equal(t, "individual", a["type"])
	require.Equal(t, "pending", a["status"])
	require.Nil(t, a["blocked_reason"])
	require.Equal(t, []any{}, a["restricted_by"])
	require.Nil(t, a["external_id"])
	require.Equal(t, map[string]any{"order": "42"}, a["metadata"])
	require.Equal(t, []any{}, a["capabilities"])
	require.Equal(t, []any{}, a["steps"], "no capability, no onboarding step")
	require.Nil(t, a["terms_of_service"])
	require.Equal(t, false, a["livemode"])
	created := requireInt(t, a["created"], "created")
	require.Equal(t, testenv.Start.Unix(), created)
	require.Equal(t, created, requireInt(t, a["updated"], "updated"))

	require.Equal(t, map[string]any{"individual": map[string]any{
		"name":          map[string]any{"first_name": "Ada", "middle_name": nil, "last_name": "Lovelace", "suffix": nil},
		"email":         "ada@example.com",
		"phone":         map[string]any{"number": "2001001695", "country_code": "1"},
		"ssn_last_four": "6789",
		"birthdate":     "1990-12-10",
		"address": map[string]any{"line_1": "1 Main St", "line_2": nil, "city": "Austin", "state": "TX",
			"postal_code": "78701", "country": "US"},
	}}, a["profile"])

	// The full SSN is accepted but never returned, nor kept in the event.
	for _, body := range []string{string(r.Body), jsonString(listEvents(t, f.sk, ""))} {
		require.NotContains(t, body, `"ssn"`)
		require.NotContains(t, body, "123-45-6789")
		require.NotContains(t, body, "123456789")
	}

	got := f.sk.Get("/v1/accounts/" + id(a))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, a, got.JSON(), "retrieve answers what create answered")

	evs := listEvents(t, f.sk, "")
	require.Len(t, evs, 1)
	require.Equal(t, "account.created", evs[0].Type)
	require.Equal(t, a, evs[0].object(), "the event carries the account as REST renders it")
	require.Nil(t, evs[0].previous())
}

func TestCreateIndividualMinimalProfile(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Only the name, which is all an individual profile requires.
	a := f.sk.CreateAccount(testenv.Individual().WithIndividual(func(p *testenv.IndividualSpec) {
		*p = testenv.IndividualSpec{Name: p.Name}
	}))
	requireAccountShape(t, a)
	p := a["profile"].(map[string]any)["individual"].(map[string]any)
	require.Nil(t, p["address"], "address is null when unset")
	require.Nil(t, p["phone"])
	require.Nil(t, p["email"])
	require.Nil(t, p["ssn_last_four"])
	require.Nil(t, p["birthdate"])
}

func TestCreateAccountInputAliases(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// The aliases are spellings a spec cannot say: the body is raw.
	a := f.sk.CreateAccountRaw(merge(testenv.Individual().RESTBody(), map[string]any{"profile": map[string]any{"individual": map[string]any{
		"birthdate": del, "dob": "1985-03-04", "ssn": "987654321",
		"address": map[string]any{"line_1": del, "line1": "9 Side St", "line2": "Apt 4"},
	}}}))
	p := a["profile"].(map[string]any)["individual"].(map[string]any)
	require.Equal(t, "1985-03-04", p["birthdate"], "dob is accepted for birthdate")
	require.Equal(t, "4321", p["ssn_last_four"], "an SSN without dashes is accepted")
	addr := p["address"].(map[string]any)
	require.Equal(t, "9 Side St", addr["line_1"], "output always says line_1")
	require.Equal(t, "Apt 4", addr["line_2"])
	require.NotContains(t, addr, "line1")

	// Both spellings with the same value are fine; different values conflict.
	same := f.sk.CreateAccountRaw(merge(testenv.Individual().RESTBody(), map[string]any{"profile": map[string]any{"individual": map[string]any{
		"dob": "1990-12-10", "address": map[string]any{"line1": "1 Main St"}}}}))
	require.Equal(t, "1990-12-10", same["profile"].(map[string]any)["individual"].(map[string]any)["birthdate"])

	r := f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"profile": map[string]any{"individual": map[string]any{
		"dob": "1980-01-01", "address": map[string]any{"line1": "Elsewhere", "line_2": "A", "line2": "B"}}}}))
	errs := requireValidation(t, r, "profile.individual.birthdate", "profile.individual.address.line_1",
		"profile.individual.address.line_2")
	requireProblem(t, errs, "profile.individual.birthdate", "conflicts with dob")
	requireProblem(t, errs, "profile.individual.address.line_1", "conflicts with line1")
}

func TestCreateBusinessAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	samePhysicalAndLegal := false
	biz := testenv.Business().WithExternalID("biz-1").WithBusiness(func(p *testenv.BusinessSpec) {
		p.DoingBusinessAs, p.Website, p.Description = "Engines", "engines.example", "Computing machines"
		p.MCC, p.NAICS, p.SamePhysicalAndLegalAddress = "5734", "334111", &samePhysicalAndLegal
		p.Phone = &testenv.PhoneSpec{Number: "303 555 0100", CountryCode: "1"}
		p.PhysicalAddress = &testenv.AddressSpec{Line1: "3 Plant Rd", City: "Boulder", State: "CO", PostalCode: "80301", Country: "US"}
	})
	// The legal address goes as line1, the input alias, so a business
	// address is read through it too.
	r := f.sk.Post("/v1/accounts", merge(biz.RESTBody(), map[string]any{"profile": map[string]any{"business": map[string]any{
		"address": map[string]any{"line_1": del, "line1": "2 Market St"}}}}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	a := r.JSON()
	requireAccountShape(t, a)
	require.Equal(t, "business", a["type"])
	require.Equal(t, "biz-1", a["external_id"])
	require.Equal(t, map[string]any{"business": map[string]any{
		"legal_business_name": "Analytical Engines LLC", "doing_business_as": "Engines", "business_type": "llc",
		"email": "ops@engines.example", "phone": map[string]any{"number": "3035550100", "country_code": "1"},
		"website": "engines.example", "description": "Computing machines", "ein_last_four": "6789",
		"mcc": "5734", "naics": "334111", "same_physical_and_legal_address": false,
		"address": map[string]any{"line_1": "2 Market St", "line_2": nil, "city": "Denver", "state": "CO",
			"postal_code": "80202", "country": "US"},
		"physical_address": map[string]any{"line_1": "3 Plant Rd", "line_2": nil, "city": "Boulder", "state": "CO",
			"postal_code": "80301", "country": "US"},
	}}, a["profile"])
	require.NotContains(t, string(r.Body), "12-3456789", "the EIN is never returned in full")
	require.NotContains(t, string(r.Body), `"ein"`)

	// A business account with kyb lists the business requirements.
	r = f.sk.Post("/v1/accounts", testenv.Business().WithCapabilities("kyb").RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	kyb := capByName(r.JSON()["capabilities"], "kyb")
	require.Equal(t, []any{"beneficial_owners_collected", "terms_of_service"}, kyb["currently_due"])
}

func TestCreateNormalisesPhoneNumbers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cases := []struct {
		number, cc any
		want       map[string]any
	}{
		{"(200) 100-1695", "+1", map[string]any{"number": "2001001695", "country_code": "1"}},
		{"200.100.1695", "1", map[string]any{"number": "2001001695", "country_code": "1"}},
		{"200 100 1695", "us", map[string]any{"number": "2001001695", "country_code": "1"}},
		{"+1 (200) 100-1695", nil, map[string]any{"number": "2001001695", "country_code": "1"}},
		{"020 7946 0958", "GB", map[string]any{"number": "2079460958", "country_code": "44"}},
	}
	for _, tc := range cases {
		phone := map[string]any{"number": tc.number}
		if tc.cc != nil {
			phone["country_code"] = tc.cc
		}
		body := testenv.Individual().RESTBody()
		body["profile"].(map[string]any)["individual"].(map[string]any)["phone"] = phone
		c := f.sk.Post("/v1/accounts", body)
		require.Equal(t, http.StatusCreated, c.Status, string(c.Body))
		require.Equal(t, tc.want, c.JSON()["profile"].(map[string]any)["individual"].(map[string]any)["phone"], "%v", tc)
	}

	for _, bad := range []map[string]any{
		{"number": "123", "country_code": "1"},
		{"number": "call me", "country_code": "1"},
		{"number": "2001001695"}, // no country code and no leading +
	} {
		body := testenv.Individual().RESTBody()
		body["profile"].(map[string]any)["individual"].(map[string]any)["phone"] = bad
		errs := requireValidation(t, f.sk.Post("/v1/accounts", body), "profile.individual.phone.number")
		requireProblem(t, errs, "profile.individual.phone.number", "is not a valid phone number")
	}
}

func TestCreateWithCapabilitiesExpandsDependencies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_receive", "kyc_prefill", "card_receive"))
	requireAccountShape(t, a)
	// Transitive expansion, deduplicated, in catalogue order.
	require.Equal(t, []string{"kyc", "phone_verification", "kyc_prefill", "card_verification", "card_receive"},
		capNames(a["capabilities"]))
	for _, c := range a["capabilities"].([]any) {
		cap := c.(map[string]any)
		require.Equal(t, "pending", cap["status"])
		require.Nil(t, cap["disabled_reason"])
		require.Equal(t, []any{}, cap["errors"])
		require.Equal(t, testenv.Start, requireISO(t, cap["created"], "created"))
	}
	// The profile is complete: kyc now waits for the identity run and terms.
	require.Equal(t, []any{"identity_verification", "terms_of_service"}, capByName(a["capabilities"], "kyc")["currently_due"])
	require.Equal(t, []any{"phone_verification", "terms_of_service"}, capByName(a["capabilities"], "phone_verification")["currently_due"])
	require.Equal(t, []any{"payment_method.card", "terms_of_service"}, capByName(a["capabilities"], "card_receive")["currently_due"])

	var stepKeys []string
	for _, s := range a["steps"].([]any) {
		stepKeys = append(stepKeys, s.(map[string]any)["key"].(string))
	}
	require.Equal(t, []string{"phone_verification", "id_verification", "kyc_prefill", "payment_method", "terms_of_service"}, stepKeys)

	// Capabilities come back with the account on retrieve and through the
	// capabilities list.
	list := f.sk.Get("/v1/accounts/" + id(a) + "/capabilities")
	require.Equal(t, http.StatusOK, list.Status)
	require.Equal(t, a["capabilities"], list.JSON()["data"])
}

func TestCreateWithTermsOfService(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{
		Token: "tos_v3", IPAddress: "203.0.113.9", AcceptedAt: "2026-01-10T08:00:00+02:00"}))
	requireAccountShape(t, a)
	tos := a["terms_of_service"].(map[string]any)
	require.Equal(t, "tos_v3", tos["token"])
	require.Equal(t, true, tos["accepted"])
	require.Equal(t, "2026-01-10T06:00:00Z", tos["accepted_at"])

	// Without accepted_at the acceptance is stamped now.
	b := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{Token: "tos_v3"}))
	at := requireISO(t, b["terms_of_service"].(map[string]any)["accepted_at"], "accepted_at")
	require.WithinDuration(t, testenv.Start, at, 0, "acceptance uses the server clock")

	r := f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"terms_of_service": map[string]any{
		"accepted_at": "2027-01-01T00:00:00Z", "ip_address": "not-an-ip"}}))
	errs := requireValidation(t, r, "terms_of_service.accepted_at", "terms_of_service.ip_address")
	requireProblem(t, errs, "terms_of_service.accepted_at", "must not be in the future")
	requireProblem(t, errs, "terms_of_service.ip_address", "is not a valid IP address")

	r = f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"terms_of_service": map[string]any{"accepted_at": "yesterday"}}))
	requireValidation(t, r, "terms_of_service.accepted_at")
}

func TestCreateExternalIDIsUniquePerMerchantAndMode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	first := f.sk.CreateAccount(testenv.Individual().WithExternalID("user-1"))
	require.Equal(t, "user-1", first["external_id"])

	r := f.sk.Post("/v1/accounts", testenv.Individual().WithExternalID("user-1").RESTBody())
	errs := requireValidation(t, r, "external_id")
	requireProblem(t, errs, "external_id", "has already been taken by another account")

	// The other mode and another merchant have their own namespaces.
	live := f.live.CreateAccount(testenv.Individual().WithExternalID("user-1"))
	require.Equal(t, true, live["livemode"])
	_, k2 := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	f.env.Client(k2.Sandbox.Secret).CreateAccount(testenv.Individual().WithExternalID("user-1"))

	// The refused create left nothing behind.
	require.Len(t, listEvents(t, f.sk, "account.created"), 1)
	list := f.sk.Get("/v1/accounts?external_id=user-1")
	require.Len(t, list.JSON()["data"], 1)

	// Blank and over-long external ids are refused.
	requireValidation(t, f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"external_id": "  "})), "external_id")
	requireValidation(t, f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"external_id": strings.Repeat("x", 256)})), "external_id")
}

func TestCreateExternalIDConcurrently(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const n = 6
	statuses := make([]int, n)
	bodies := make([]*testenv.Response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			bodies[i] = f.sk.Post("/v1/accounts", testenv.Individual().WithExternalID("race").RESTBody())
			statuses[i] = bodies[i].Status
		}()
	}
	close(start)
	wg.Wait()
	created := 0
	for i, s := range statuses {
		if s == http.StatusCreated {
			created++
			continue
		}
		errs := requireValidation(t, bodies[i], "external_id")
		requireProblem(t, errs, "external_id", "has already been taken by another account")
	}
	require.Equal(t, 1, created, "exactly one create wins: %v", statuses)
	require.Len(t, f.sk.Get("/v1/accounts?external_id=race").JSON()["data"], 1)
	require.Len(t, listEvents(t, f.sk, "account.created"), 1, "losers roll back their event")
}

func TestCreateMetadataLimits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ok := map[string]string{strings.Repeat("k", 40): strings.Repeat("v", 100)}
	for i := range 19 {
		ok[fmt.Sprintf("key%02d", i)] = "v"
	}
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(ok))
	require.Len(t, a["metadata"], 20, "20 keys, a 40-character key and a 100-character value are allowed")

	long := strings.Repeat("k", 41)
	bad := map[string]any{long: "v", "big": strings.Repeat("v", 101)}
	for i := range 19 {
		bad[fmt.Sprintf("key%02d", i)] = "v"
	}
	r := f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"metadata": bad}))
	errs := requireValidation(t, r, "metadata", "metadata."+long, "metadata.big")
	requireProblem(t, errs, "metadata", "must have at most 20 keys")
	requireProblem(t, errs, "metadata."+long, "key must be at most 40 characters")
	requireProblem(t, errs, "metadata.big", "must be at most 100 characters")

	// Null values are dropped, so they do not count against the limit.
	withNulls := map[string]any{"a": nil}
	for i := range 20 {
		withNulls[fmt.Sprintf("key%02d", i)] = "v"
	}
	a = f.sk.CreateAccountRaw(merge(testenv.Individual().RESTBody(), map[string]any{"metadata": withNulls}))
	require.Len(t, a["metadata"], 20)
	require.NotContains(t, a["metadata"], "a")

	requireValidation(t, f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{"metadata": map[string]any{" ": "v"}})), "metadata")
}

func TestCreateCollectsEveryValidationProblem(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/accounts", map[string]any{
		"type": "individual",
		"profile": map[string]any{
			"business": map[string]any{"legal_business_name": "X"},
			"individual": map[string]any{
				"name":          map[string]any{"first_name": "", "suffix": strings.Repeat("s", 21)},
				"email":         "not-an-email",
				"phone":         map[string]any{"number": "12", "country_code": "1"},
				"ssn":           "12-34",
				"ssn_last_four": "12a4",
				"birthdate":     "2030-01-01",
				"dob":           "1990-02-30",
				"address":       map[string]any{"country": "USA", "postal_code": strings.Repeat("9", 21)},
			},
		},
		"capabilities":     []string{"kyc", "teleportation"},
		"external_id":      "",
		"metadata":         map[string]any{"k": strings.Repeat("v", 101)},
		"terms_of_service": map[string]any{"ip_address": "999.1.1.1"},
	})
	errs := requireValidation(t, r,
		"profile.business",
		"profile.individual.name.first_name",
		"profile.individual.name.last_name",
		"profile.individual.name.suffix",
		"profile.individual.email",
		"profile.individual.phone.number",
		"profile.individual.ssn",
		"profile.individual.ssn_last_four",
		"profile.individual.birthdate",
		"profile.individual.dob",
		"profile.individual.address.country",
		"profile.individual.address.postal_code",
		"capabilities",
		"external_id",
		"metadata.k",
		"terms_of_service.ip_address",
	)
	requireProblem(t, errs, "profile.business", "is not allowed for an individual account")
	requireProblem(t, errs, "profile.individual.name.first_name", "must not be blank")
	requireProblem(t, errs, "profile.individual.name.last_name", "is required")
	requireProblem(t, errs, "profile.individual.email", "is invalid")
	requireProblem(t, errs, "profile.individual.ssn", "must be 9 digits (XXX-XX-XXXX)")
	requireProblem(t, errs, "profile.individual.ssn_last_four", "must be 4 digits")
	requireProblem(t, errs, "profile.individual.birthdate", "must not be in the future")
	requireProblem(t, errs, "profile.individual.birthdate", "conflicts with dob")
	requireProblem(t, errs, "profile.individual.dob", "must be a date in the form YYYY-MM-DD")
	requireProblem(t, errs, "profile.individual.address.country", "must be a two-letter ISO 3166-1 country code")
	requireProblem(t, errs, "capabilities", `contains "teleportation", which is not a capability`)
	requireProblem(t, errs, "external_id", "must not be blank")
	e := r.JSON()
	require.True(t, strings.HasPrefix(e["message"].(string), "Validation failed: "), e["message"])
	require.Empty(t, listEvents(t, f.sk, ""), "a refused create writes nothing")
	require.Empty(t, f.sk.Get("/v1/accounts?include_disabled=true").JSON()["data"])
}

func TestCreateRequiredMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cases := []struct {
		body  any
		paths []string
	}{
		{map[string]any{}, []string{"type", "profile"}},
		{nil, []string{"type", "profile"}},
		{map[string]any{"type": "robot", "profile": map[string]any{}}, []string{"type"}},
		{map[string]any{"type": "individual", "profile": map[string]any{}}, []string{"profile.individual"}},
		{map[string]any{"type": "individual", "profile": map[string]any{"individual": map[string]any{}}}, []string{"profile.individual.name"}},
		{map[string]any{"type": "individual", "profile": map[string]any{"individual": map[string]any{"name": map[string]any{}}}},
			[]string{"profile.individual.name.first_name", "profile.individual.name.last_name"}},
		{map[string]any{"type": "business", "profile": map[string]any{"individual": map[string]any{"name": map[string]any{"first_name": "A", "last_name": "B"}}}},
			[]string{"profile.individual", "profile.business"}},
		{map[string]any{"type": "business", "profile": map[string]any{"business": map[string]any{}}}, []string{"profile.business.legal_business_name"}},
		{map[string]any{"type": "business", "profile": map[string]any{"business": map[string]any{
			"legal_business_name": "X", "business_type": "guild", "ein": "1", "website": "nope", "mcc": "12", "naics": "1"}}},
			[]string{"profile.business.business_type", "profile.business.ein", "profile.business.website", "profile.business.mcc", "profile.business.naics"}},
	}
	for _, tc := range cases {
		r := f.sk.Post("/v1/accounts", tc.body)
		requireValidation(t, r, tc.paths...)
	}
}

func TestCreateRefusesWrongJSONTypes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cases := []struct {
		body  string
		param string
	}{
		{`{"type": 1}`, "type"},
		{`{"type": "individual", "profile": {"individual": {"name": {"first_name": 5}}}}`, "profile.individual.name.first_name"},
		{`{"type": "individual", "profile": []}`, "profile"},
		{`{"type": "individual", "capabilities": "kyc"}`, "capabilities"},
		{`{"type": "individual", "metadata": {"k": 1}}`, "metadata"}, // map keys are not part of the path encoding/json reports
		{`{"type": "business", "profile": {"business": {"same_physical_and_legal_address": "yes"}}}`, "profile.business.same_physical_and_legal_address"},
	}
	for _, tc := range cases {
		r := f.sk.Post("/v1/accounts", tc.body)
		e := requireError(t, r, http.StatusBadRequest, "parameter_invalid", tc.param)
		require.Contains(t, e["message"], tc.param, tc.body)
		require.Equal(t, []string{"message"}, keys(errorDetails(e)))
	}
	for _, body := range []string{`{"type": "individual"`, `not json`, `[]`, `"individual"`, `{"type":"individual"} {}`, `{"a":1}x`} {
		r := f.sk.Post("/v1/accounts", body)
		requireError(t, r, http.StatusBadRequest, "invalid_json", "")
	}
	require.Empty(t, listEvents(t, f.sk, ""))
}

func TestCreateRefusesNULCharacters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/accounts", merge(testenv.Individual().RESTBody(), map[string]any{
		"profile":      map[string]any{"individual": map[string]any{"name": map[string]any{"first_name": "A\x00da"}, "email": "a\x00@example.com"}},
		"external_id":  "x\x00",
		"metadata":     map[string]any{"k": "v\x00", "k\x00": "v"},
		"capabilities": []string{"kyc\x00"},
	}))
	errs := requireValidation(t, r, "profile.individual.name.first_name", "profile.individual.email", "external_id",
		"metadata", "metadata.k", "capabilities")
	requireProblem(t, errs, "profile.individual.name.first_name", "must not contain NUL characters")
	requireProblem(t, errs, "metadata.k", "must not contain NUL characters")
	requireProblem(t, errs, "metadata", "keys must be valid text")

	// Raw JSON escapes too, in every free-text member that reaches storage.
	for _, path := range [][]string{
		{"profile", "individual", "name", "middle_name"},
		{"profile", "individual", "address", "city"},
		{"profile", "individual", "address", "line_2"},
		{"profile", "individual", "phone", "number"},
		{"terms_of_service", "token"},
		{"terms_of_service", "user_agent"},
	} {
		body := testenv.Individual().RESTBody()
		m := body
		for _, k := range path[:len(path)-1] {
			if _, ok := m[k]; !ok {
				m[k] = map[string]any{}
			}
			m = m[k].(map[string]any)
		}
		m[path[len(path)-1]] = "bad\x00value"
		r := f.sk.Post("/v1/accounts", body)
		errs := requireValidation(t, r, strings.Join(path, "."))
		requireProblem(t, errs, strings.Join(path, "."), "must not contain NUL characters")
	}
}
