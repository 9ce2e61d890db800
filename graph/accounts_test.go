package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestCreateAndReadAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)

	a := f.sk.CreateAccountGraphQL(testenv.Individual().
		WithCapabilities("kyc").
		WithExternalID("user-42").
		WithMetadata(map[string]string{"plan": "gold"}).
		WithTermsOfService(testenv.TermsSpec{Token: "tos-1", IPAddress: "203.0.113.9"}), accountFields)
	require.Equal(t, "INDIVIDUAL", a["type"])
	require.Equal(t, "PENDING", a["status"])
	require.Nil(t, a["blockedReason"])
	require.Equal(t, []any{}, a["restrictedBy"])
	require.Equal(t, "user-42", a["externalId"])
	require.Equal(t, map[string]any{"plan": "gold"}, a["metadata"])
	require.Nil(t, a["payoutPaymentMethodId"])
	require.Equal(t, false, a["livemode"])
	require.Equal(t, "2026-01-15T12:00:00Z", a["created"])

	ind := obj(obj(a["profile"])["individual"])
	require.Nil(t, obj(a["profile"])["business"])
	require.Equal(t, "6789", ind["ssnLastFour"], "only the last four digits of the SSN are kept")
	require.NotContains(t, ind, "ssn")
	require.Equal(t, "1990-12-10", ind["birthdate"])
	require.Equal(t, map[string]any{"firstName": "Ada", "middleName": nil, "lastName": "Lovelace", "suffix": nil}, ind["name"])
	require.Equal(t, map[string]any{"number": "2001001695", "countryCode": "1"}, ind["phone"])
	require.Equal(t, "1 Main St", obj(ind["address"])["line1"])
	require.Equal(t, "78701", obj(ind["address"])["postalCode"])

	tos := obj(a["termsOfService"])
	require.Equal(t, true, tos["accepted"])
	require.Equal(t, "tos-1", tos["token"])
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`, tos["acceptedAt"])

	caps := list(a["capabilities"])
	require.Len(t, caps, 1)
	c := obj(caps[0])
	require.Equal(t, "KYC", c["name"])
	require.Equal(t, "PENDING", c["status"])
	require.Equal(t, a["id"], c["accountId"])
	require.Nil(t, c["disabled"])
	require.Nil(t, c["ineligibleReason"])
	require.Contains(t, list(c["currentlyDue"]), "identity_verification")
	require.Equal(t, []any{}, c["errors"])
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`, c["created"])

	for _, s := range list(a["steps"]) {
		require.Contains(t, []string{"PENDING", "COMPLETED"}, obj(s)["status"])
	}

	// The same account, read back through the query and through REST.
	g := gql(t, f.sk, `query($id: ID!) { account(id: $id) {`+accountFields+`} }`, map[string]any{"id": a["id"]})
	require.Equal(t, a, g.Data["account"])

	r := f.sk.Get("/v1/accounts/" + str(a["id"]))
	require.Equal(t, http.StatusOK, r.Status)
	rest := r.JSON()
	require.Equal(t, a["id"], rest["id"])
	require.Equal(t, "individual", rest["type"])
	require.Equal(t, c["id"], obj(list(rest["capabilities"])[0])["id"])

	// An account made over REST reads the same over GraphQL.
	business := f.sk.CreateAccount(testenv.Business())
	g = gql(t, f.sk, `query($id: ID!) { account(id: $id) { type profile { individual { email } business { legalBusinessName einLastFour address { line1 city } } } } }`,
		map[string]any{"id": business["id"]})
	require.Equal(t, map[string]any{"type": "BUSINESS", "profile": map[string]any{"individual": nil, "business": map[string]any{
		"legalBusinessName": "Analytical Engines LLC", "einLastFour": "6789",
		"address": map[string]any{"line1": "2 Market St", "city": "Denver"}}}}, g.Data["account"])
}

func TestSSNIsNotAnOutputField(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g, e := gqlError(t, f.sk, `{ accounts { edges { node { profile { individual { ssn } } } } } }`, nil)
	require.Equal(t, http.StatusOK, g.Status)
	require.Equal(t, "GRAPHQL_VALIDATION_FAILED", code(e))
	require.Contains(t, e.Message, "ssn")
}

func TestCreateAccountValidationReportsEveryField(t *testing.T) {
	t.Parallel()
	f := setup(t)
	long := strings.Repeat("x", 101)
	g, e := gqlError(t, f.sk, createAccountMutation, map[string]any{"input": override(testenv.Individual().GraphQLInput(), map[string]any{
		"profile": map[string]any{"individual": map[string]any{
			"name":  map[string]any{"lastName": "Lovelace"},
			"email": "not-an-email",
			"ssn":   "12",
			"address": map[string]any{
				"country": "USA",
			},
		}},
		"metadata": map[string]any{"k": long},
	})})
	require.Equal(t, http.StatusOK, g.Status)
	require.Nil(t, g.Data, "a failed non-null mutation nulls the data")
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, 422, status(e))
	require.Equal(t, []any{"createAccount"}, e.Path)
	require.True(t, strings.HasPrefix(e.Message, "Validation failed: "), e.Message)
	fields := obj(e.Extensions["errors"])
	for _, k := range []string{"profile.individual.name.first_name", "profile.individual.email",
		"profile.individual.ssn", "profile.individual.address.country", "metadata.k"} {
		require.Contains(t, fields, k)
	}
	require.NotEmpty(t, e.Extensions["request_id"])
	require.Regexp(t, `^req_`, e.Extensions["request_id"])

	// The same body over REST fails the same way.
	r := f.sk.Post("/v1/accounts", map[string]any{"type": "individual", "profile": map[string]any{"individual": map[string]any{
		"name": map[string]any{"last_name": "Lovelace"}, "email": "not-an-email", "ssn": "12",
		"address": map[string]any{"country": "USA"}}}, "metadata": map[string]any{"k": long}})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Equal(t, fields, obj(r.JSON()["error_details"])["errors"])

	// A metadata value that is not a string is a validation error too.
	_, e = gqlError(t, f.sk, createAccountMutation, map[string]any{"input": override(testenv.Individual().GraphQLInput(), map[string]any{
		"metadata": map[string]any{"n": 5}})})
	require.Equal(t, "validation_errors", code(e))
	require.Contains(t, obj(e.Extensions["errors"]), "metadata.n")

	// Enum values are SCREAMING_CASE: the wire value is not accepted.
	g, e = gqlError(t, f.sk, createAccountMutation, map[string]any{"input": override(testenv.Individual().GraphQLInput(), map[string]any{"type": "individual"})})
	require.Equal(t, http.StatusOK, g.Status, "a variable that does not coerce is a request error: 200 in application/json")
	require.Nil(t, g.Data, string(g.Raw))
	require.Equal(t, "GRAPHQL_VALIDATION_FAILED", code(e), string(g.Raw))
	require.Equal(t, "individual is not a valid AccountType", e.Message)
	require.Equal(t, []any{"variable", "input", "type"}, e.Path)
	for _, q := range []struct {
		query string
		vars  map[string]any
	}{
		{`query($f: AccountFilter) { accounts(filter: $f) { edges { cursor } } }`, map[string]any{"f": map[string]any{"status": "active"}}},
		{`query($s: AccountStatus) { accounts(filter: {status: $s}) { edges { cursor } } }`, map[string]any{"s": "Active"}},
		{`mutation($c: [CapabilityName!]!) { requestCapabilities(accountId: "x", capabilities: $c) { created } }`, map[string]any{"c": []any{"KYC", "kyb"}}},
		{`mutation($c: [CapabilityName!]!) { requestCapabilities(accountId: "x", capabilities: $c) { created } }`, map[string]any{"c": "kyb"}},
		{`{ accounts(filter: {status: active}) { edges { cursor } } }`, nil},
	} {
		g, e = gqlError(t, f.sk, q.query, q.vars)
		require.Equal(t, http.StatusOK, g.Status, q.query+string(g.Raw))
		require.Equal(t, "GRAPHQL_VALIDATION_FAILED", code(e), q.query)
	}
}

func TestCapabilityNotProvisionable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "payments only", Products: []string{string(capability.ProductPayments)}})
	c := f.env.Client(keys.Sandbox.Secret)

	_, e := gqlError(t, c, createAccountMutation, map[string]any{"input": testenv.Individual().WithCapabilities("kyc").GraphQLInput()})
	require.Equal(t, "capability_not_provisionable", code(e))
	require.Equal(t, 422, status(e))
	require.Equal(t, "capabilities", e.Extensions["param"])
	require.Equal(t, map[string]any{"capability": "kyc", "required_product": "identity"}, e.Extensions["data"])

	a := c.CreateAccountGraphQL(testenv.Individual().WithCapabilities("card_send"), accountFields)
	var names []any
	for _, cp := range list(a["capabilities"]) {
		names = append(names, obj(cp)["name"])
	}
	require.Equal(t, []any{"CARD_VERIFICATION", "CARD_SEND"}, names, "dependencies come along, in catalogue order")

	_, e = gqlError(t, c, `mutation($id: ID!) { requestCapabilities(accountId: $id, capabilities: [KYB]) { created } }`,
		map[string]any{"id": a["id"]})
	require.Equal(t, "capability_not_provisionable", code(e))
	require.Equal(t, map[string]any{"capability": "kyb", "required_product": "identity"}, e.Extensions["data"])
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccountGraphQL(testenv.Individual().WithMetadata(map[string]string{"k": "v"}), accountFields)
	read := `query($id: ID!) { account(id: $id) { id status metadata payoutPaymentMethodId profile { individual { email } } capabilities { name } } }`

	t.Run("publishable key may not create", func(t *testing.T) {
		g, e := gqlError(t, f.pk, createAccountMutation, map[string]any{"input": testenv.Individual().GraphQLInput()})
		require.Equal(t, http.StatusOK, g.Status)
		require.Equal(t, "forbidden", code(e))
		require.Equal(t, 403, status(e))
	})
	t.Run("publishable key reads without merchant internals", func(t *testing.T) {
		g := gql(t, f.pk, read, map[string]any{"id": a["id"]})
		acct := obj(g.Data["account"])
		require.Equal(t, a["id"], acct["id"])
		require.Nil(t, acct["metadata"])
		require.Nil(t, acct["payoutPaymentMethodId"])
		require.Nil(t, acct["profile"])
		require.Equal(t, []any{}, acct["capabilities"])
	})
	t.Run("publishable key may not list", func(t *testing.T) {
		_, e := gqlError(t, f.pk, `{ accounts { edges { cursor } } }`, nil)
		require.Equal(t, "forbidden", code(e))
	})
	t.Run("secret key sees everything", func(t *testing.T) {
		g := gql(t, f.sk, read, map[string]any{"id": a["id"]})
		acct := obj(g.Data["account"])
		require.Equal(t, map[string]any{"k": "v"}, acct["metadata"])
		require.Equal(t, "ada@example.com", obj(obj(acct["profile"])["individual"])["email"])
	})
	t.Run("no credential is 401", func(t *testing.T) {
		g, e := gqlError(t, f.env.Client(""), read, map[string]any{"id": a["id"]})
		require.Nil(t, g.Data, "refused before anything ran")
		require.Equal(t, http.StatusUnauthorized, g.Status)
		require.Equal(t, "authentication_required", code(e))
		require.Equal(t, 401, status(e))
	})
	t.Run("unknown key is refused before GraphQL", func(t *testing.T) {
		g := f.env.Client("sk_sandbox_"+strings.Repeat("a", 32)).GraphQL(read, map[string]any{"id": a["id"]})
		require.Equal(t, http.StatusUnauthorized, g.Status)
	})
	t.Run("another merchant's account is missing", func(t *testing.T) {
		_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "other"})
		g, e := gqlError(t, f.env.Client(keys.Sandbox.Secret), read, map[string]any{"id": a["id"]})
		require.Equal(t, map[string]any{"account": nil}, g.Data)
		require.Equal(t, "resource_missing", code(e))
		require.Equal(t, 404, status(e))
		require.Equal(t, []any{"account"}, e.Path)
		require.Equal(t, fmt.Sprintf("No such account: '%s'", a["id"]), e.Message)
	})
	t.Run("the other mode's account is missing", func(t *testing.T) {
		_, e := gqlError(t, f.live, read, map[string]any{"id": a["id"]})
		require.Equal(t, "resource_missing", code(e))
	})
	t.Run("a malformed id is missing", func(t *testing.T) {
		_, e := gqlError(t, f.sk, read, map[string]any{"id": "nope"})
		require.Equal(t, "resource_missing", code(e))
	})
}

func TestAccountMutations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc_prefill").WithMetadata(map[string]string{"a": "1", "b": "2"}), accountFields)
	vars := map[string]any{"id": a["id"]}

	g := gql(t, f.sk, `mutation($id: ID!, $in: UpdateAccountInput!) { updateAccount(id: $id, input: $in) { externalId metadata profile { individual { email name { firstName lastName } } } } }`,
		map[string]any{"id": a["id"], "in": map[string]any{"externalId": "ext-1", "metadata": map[string]any{"a": nil, "c": "3"},
			"profile": map[string]any{"individual": map[string]any{"email": "ada@new.example"}}}})
	require.Equal(t, map[string]any{"externalId": "ext-1", "metadata": map[string]any{"b": "2", "c": "3"},
		"profile": map[string]any{"individual": map[string]any{"email": "ada@new.example",
			"name": map[string]any{"firstName": "Ada", "lastName": "Lovelace"}}}}, g.Data["updateAccount"])

	g = gql(t, f.sk, `mutation($id: ID!) { restrictAccount(id: $id) { status restrictedBy blockedReason } }`, vars)
	require.Equal(t, map[string]any{"status": "RESTRICTED", "restrictedBy": []any{"MERCHANT"}, "blockedReason": "MERCHANT_RESTRICTED"}, g.Data["restrictAccount"])

	g = gql(t, f.sk, `mutation($id: ID!) { unrestrictAccount(id: $id) { status restrictedBy blockedReason } }`, vars)
	require.Equal(t, map[string]any{"status": "PENDING", "restrictedBy": []any{}, "blockedReason": nil}, g.Data["unrestrictAccount"])

	// Capabilities: request (created, then not), disable refused while a
	// dependent is live, disable, reactivate.
	g = gql(t, f.sk, `mutation($id: ID!) { requestCapabilities(accountId: $id, capabilities: [CARD_SEND]) { created capabilities { name status account { id } } } }`, vars)
	p := obj(g.Data["requestCapabilities"])
	require.Equal(t, true, p["created"])
	require.Equal(t, []any{
		map[string]any{"name": "CARD_VERIFICATION", "status": "PENDING", "account": map[string]any{"id": a["id"]}},
		map[string]any{"name": "CARD_SEND", "status": "PENDING", "account": map[string]any{"id": a["id"]}},
	}, p["capabilities"])
	g = gql(t, f.sk, `mutation($id: ID!) { requestCapabilities(accountId: $id, capabilities: [CARD_SEND]) { created } }`, vars)
	require.Equal(t, false, obj(g.Data["requestCapabilities"])["created"])

	_, e := gqlError(t, f.sk, `mutation($id: ID!) { disableCapability(accountId: $id, name: KYC) { status } }`, vars)
	require.Equal(t, "capability_has_live_dependents", code(e))
	require.Equal(t, 422, status(e))
	require.Equal(t, "kyc", obj(e.Extensions["data"])["capability"])

	g = gql(t, f.sk, `mutation($id: ID!) { disableCapability(accountId: $id, name: CARD_SEND) { name status disabled } }`, vars)
	d := obj(g.Data["disableCapability"])
	require.Equal(t, "DISABLED", d["status"])
	require.NotNil(t, d["disabled"])

	g = gql(t, f.sk, `query($id: ID!) { capability(accountId: $id, name: CARD_SEND) { status } capabilities(accountId: $id) { name } }`, vars)
	require.Equal(t, map[string]any{"status": "DISABLED"}, g.Data["capability"])
	require.Len(t, list(g.Data["capabilities"]), 5)

	g = gql(t, f.sk, `mutation($id: ID!) { reactivateCapability(accountId: $id, name: CARD_SEND) { status disabled } }`, vars)
	require.Equal(t, map[string]any{"status": "PENDING", "disabled": nil}, g.Data["reactivateCapability"])

	_, e = gqlError(t, f.sk, `query($id: ID!) { capability(accountId: $id, name: KYB) { status } }`, vars)
	require.Equal(t, "resource_missing", code(e))

	// Mutation fields run one after the other; an edge read after a write
	// sees the write.
	g = gql(t, f.sk, `mutation($id: ID!) {
		before: requestCapabilities(accountId: $id, capabilities: [KYC]) { capabilities { account { restrictedBy } } }
		restrictAccount(id: $id) { id }
		after: requestCapabilities(accountId: $id, capabilities: [KYC]) { capabilities { account { restrictedBy } } }
	}`, vars)
	require.Equal(t, []any{}, obj(obj(list(obj(g.Data["before"])["capabilities"])[0])["account"])["restrictedBy"])
	require.Equal(t, []any{"MERCHANT"}, obj(obj(list(obj(g.Data["after"])["capabilities"])[0])["account"])["restrictedBy"])

	g = gql(t, f.sk, `mutation($id: ID!) { disableAccount(id: $id) { status } }`, vars)
	require.Equal(t, map[string]any{"status": "DISABLED"}, g.Data["disableAccount"])

	_, e = gqlError(t, f.sk, `mutation($id: ID!) { restrictAccount(id: $id) { status } }`, vars)
	require.Equal(t, "invalid_state", code(e))

	// The changes were recorded as events.
	g = gql(t, f.sk, `{ events(first: 100) { edges { node { type } } } }`, nil)
	var types []string
	for _, edge := range list(obj(g.Data["events"])["edges"]) {
		types = append(types, str(obj(obj(edge)["node"])["type"]))
	}
	require.Contains(t, types, "account.created")
	require.Contains(t, types, "account.restricted")
	require.Contains(t, types, "account.disabled")
	require.Contains(t, types, "capability.disabled")
	require.Equal(t, "account.disabled", types[0], "newest first")
}
