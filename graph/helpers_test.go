package graph_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fixture is one test's server with clients for the default merchant's keys.
type fixture struct {
	env  *testenv.Env
	sk   *testenv.Client // sandbox secret key
	pk   *testenv.Client // sandbox publishable key
	live *testenv.Client // production secret key
}

func setup(t *testing.T, opts ...testenv.Option) *fixture {
	t.Helper()
	env := testenv.New(t, opts...)
	return &fixture{
		env:  env,
		sk:   env.Client(env.Keys.Sandbox.Secret),
		pk:   env.Client(env.Keys.Sandbox.Publishable),
		live: env.Client(env.Keys.Production.Secret),
	}
}

// accountFields selects every field of Account.
const accountFields = `
	id type status blockedReason restrictedBy externalId metadata payoutPaymentMethodId
	profile {
		individual {
			name { firstName middleName lastName suffix }
			email phone { number countryCode } ssnLastFour birthdate
			address { line1 line2 city state postalCode country }
		}
		business {
			legalBusinessName doingBusinessAs businessType email phone { number countryCode }
			website description einLastFour mcc naics samePhysicalAndLegalAddress
			address { line1 city } physicalAddress { line1 city }
		}
	}
	capabilities { id accountId name status disabledReason ineligibleReason currentlyDue
		errors { code requirement reason } created updated disabled }
	termsOfService { token accepted acceptedAt }
	steps { key status label fields currentlyDue }
	livemode created updated`

const createAccountMutation = `mutation($input: CreateAccountInput!) {
	createAccount(input: $input) {` + accountFields + `}
}`

// Valid fixtures are built with the typed factories the REST tests share
// (testenv.Individual, Client.CreateAccountGraphQL); override is for inputs
// a spec deliberately cannot say, the malformed ones validation tests send.

// override returns in (a CreateAccountInput) with members replaced.
func override(in, members map[string]any) map[string]any {
	for k, v := range members {
		in[k] = v
	}
	return in
}

// gql runs a GraphQL operation and requires it to succeed.
func gql(t *testing.T, c *testenv.Client, query string, vars map[string]any) *testenv.GraphQLResponse {
	t.Helper()
	g := c.GraphQL(query, vars)
	require.Equal(t, http.StatusOK, g.Status, string(g.Raw))
	require.Empty(t, g.Errors, string(g.Raw))
	return g
}

// gqlError runs an operation that must fail with exactly one error and
// returns it.
func gqlError(t *testing.T, c *testenv.Client, query string, vars map[string]any) (*testenv.GraphQLResponse, testenv.GraphQLError) {
	t.Helper()
	g := c.GraphQL(query, vars)
	require.Len(t, g.Errors, 1, string(g.Raw))
	return g, g.Errors[0]
}

// obj and list walk decoded JSON.
func obj(v any) map[string]any { return v.(map[string]any) }
func list(v any) []any         { return v.([]any) }
func str(v any) string         { return v.(string) }

// code returns an error's extensions.code.
func code(e testenv.GraphQLError) string { s, _ := e.Extensions["code"].(string); return s }

// status returns an error's extensions.status.
func status(e testenv.GraphQLError) int {
	f, _ := e.Extensions["status"].(float64)
	return int(f)
}
