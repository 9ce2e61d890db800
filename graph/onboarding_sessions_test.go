package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestOnboardingSessionThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("idv"), "id")
	aid := str(acct["id"])
	g := gql(t, f.sk, `mutation($a: ID!) { createOnboardingSession(input: {accountId: $a, returnUrl: "https://example.com"}) {
		id accountId clientSecret returnUrl expiresAt steps url livemode } }`, map[string]any{"a": aid})
	s := obj(g.Data["createOnboardingSession"])
	require.Equal(t, []any{"ID_VERIFICATION"}, s["steps"], "a step key is the StepKey enum")
	require.Regexp(t, `^onb_sess_`, s["clientSecret"])

	g = gql(t, f.sk, `query($a: ID!) { account(id: $a) { onboardingSession { id clientSecret account { id } } } onboardingSession(accountId: $a) { id url } }`,
		map[string]any{"a": aid})
	require.Equal(t, s["id"], obj(obj(g.Data["account"])["onboardingSession"])["id"])
	require.Nil(t, obj(obj(g.Data["account"])["onboardingSession"])["clientSecret"])
	require.Equal(t, s["url"], obj(g.Data["onboardingSession"])["url"])

	holder := f.env.Client(str(s["clientSecret"]))
	g = gql(t, holder, `{ onboardingBootstrap { session { id steps } account { id profile { individual { email } } } } }`, nil)
	b := obj(g.Data["onboardingBootstrap"])
	require.Equal(t, s["id"], obj(b["session"])["id"])
	require.Equal(t, "ada@example.com", obj(obj(obj(b["account"])["profile"])["individual"])["email"])

	_, e := gqlError(t, holder, `mutation($a: ID!) { createOnboardingSession(input: {accountId: $a}) { id } }`, map[string]any{"a": aid})
	require.Equal(t, "forbidden", code(e))
}

func TestAccountOnboardingSessionsLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ accounts(first: 50) { edges { node { id onboardingSession { id account { id } } } } } }`
	mk := func(n int) {
		for range n {
			a := f.sk.CreateAccount(testenv.Individual())
			f.sk.CreateOnboardingSession(testenv.OnboardingSession(str(a["id"])))
		}
	}
	mk(1)
	few := gql(t, f.sk, query, nil)
	mk(4)
	many := gql(t, f.sk, query, nil)
	require.Equal(t, few.Statements, many.Statements)
	require.Equal(t, 3, many.Statements, "the credential, the page, every account's session in one batch")
}
