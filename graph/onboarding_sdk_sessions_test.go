package graph_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK onboarding family's actions through GraphQL: the payout step
// records the account's payout method; ending a session makes its secret
// stop working and the payout step refuse.
func TestOnboardingSessionActionsGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	card := f.sk.CreateAccountCard(str(acct["id"]), testenv.Visa)
	g := gql(t, f.sk, `mutation($a: ID!) { createOnboardingSession(input: {accountId: $a}) { id clientSecret } }`,
		map[string]any{"a": acct["id"]})
	s := obj(g.Data["createOnboardingSession"])

	g = gql(t, f.sk, `mutation($id: ID!, $pm: ID!) { recordOnboardingPayout(id: $id, payoutMethodId: $pm) {
		id account { id payoutPaymentMethodId } } }`, map[string]any{"id": s["id"], "pm": card.ID.String()})
	require.Equal(t, card.ID.String(), obj(obj(g.Data["recordOnboardingPayout"])["account"])["payoutPaymentMethodId"])

	g = gql(t, f.sk, `mutation($id: ID!) { expireOnboardingSession(id: $id) { id } }`, map[string]any{"id": s["id"]})
	require.Equal(t, s["id"], obj(g.Data["expireOnboardingSession"])["id"])
	_, e := gqlError(t, f.sk, `mutation($id: ID!, $pm: ID!) { recordOnboardingPayout(id: $id, payoutMethodId: $pm) { id } }`,
		map[string]any{"id": s["id"], "pm": card.ID.String()})
	require.Equal(t, "invalid_state", code(e))
	r := f.env.Client(str(s["clientSecret"])).GraphQL(`{ onboardingBootstrap { session { id } } }`, nil)
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Raw))
}
