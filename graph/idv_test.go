package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestDocumentVerificationThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("idv").WithTermsOfService(testenv.TermsSpec{Token: "tos"}), "id")
	holder := f.sk.OnboardingHolder(str(acct["id"]))

	g := gql(t, holder, `mutation { createIdvSession { inquiryId sessionToken } }`, nil)
	s := obj(g.Data["createIdvSession"])
	require.Nil(t, s["sessionToken"])
	g = gql(t, holder, `mutation($i: String!) { completeIdv(inquiryId: $i) { verified status failureType category retriable } }`,
		map[string]any{"i": s["inquiryId"]})
	require.Equal(t, map[string]any{"verified": true, "status": "APPROVED", "failureType": nil, "category": nil, "retriable": nil},
		g.Data["completeIdv"])
	g = gql(t, f.sk, `query($a: ID!) { account(id: $a) { capabilities { name status } } }`, map[string]any{"a": acct["id"]})
	require.Equal(t, []any{map[string]any{"name": "IDV", "status": "ACTIVE"}}, obj(g.Data["account"])["capabilities"])

	_, e := gqlError(t, f.sk, `mutation { createIdvSession { inquiryId } }`, nil)
	require.Equal(t, "forbidden", code(e))
}
