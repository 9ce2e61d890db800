package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestIdentityVerificationThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}), "id")
	aid := str(acct["id"])

	g := gql(t, f.sk, `mutation($a: ID!) { createIdentityVerification(accountId: $a) { id account status failureType } }`,
		map[string]any{"a": aid})
	run := obj(g.Data["createIdentityVerification"])
	require.Equal(t, "PENDING", run["status"])
	require.Equal(t, aid, run["account"])

	query := `query($a: ID!, $id: ID!) {
		identityVerification(accountId: $a, id: $id) { status completed accountNode { id } }
		account(id: $a) { status capabilities { name status } identityVerifications { id status } }
		identityVerifications(accountId: $a, first: 5, filter: {status: APPROVED}) { edges { node { id } } pageInfo { hasNextPage } }
	}`
	f.env.AwaitJobs(func() bool {
		g = gql(t, f.sk, query, map[string]any{"a": aid, "id": run["id"]})
		// The account and the run are read by separate statements: wait
		// until both show the conclusion (committed together).
		return obj(g.Data["account"])["status"] == "ACTIVE" && obj(g.Data["identityVerification"])["status"] != "PENDING"
	})
	require.Equal(t, "APPROVED", obj(g.Data["identityVerification"])["status"])
	a := obj(g.Data["account"])
	require.Equal(t, "ACTIVE", a["status"])
	require.Equal(t, []any{map[string]any{"name": "KYC", "status": "ACTIVE"}}, a["capabilities"])
	require.Equal(t, []any{map[string]any{"id": run["id"], "status": "APPROVED"}}, a["identityVerifications"])
	require.Len(t, list(obj(g.Data["identityVerifications"])["edges"]), 1)
}

func TestAccountIdentityVerificationsLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t) // runs stay pending: only the loading is measured
	query := `{ accounts(first: 50) { edges { node { id identityVerifications { id accountNode { id } } } } } }`
	mk := func(n int) {
		for range n {
			a := f.sk.CreateAccount(testenv.Individual())
			f.sk.CreateIdentityVerification(str(a["id"]))
		}
	}
	mk(1)
	few := gql(t, f.sk, query, nil)
	mk(4)
	many := gql(t, f.sk, query, nil)
	require.Len(t, list(obj(many.Data["accounts"])["edges"]), 5)
	require.Equal(t, few.Statements, many.Statements)
	require.Equal(t, 3, many.Statements, "the credential, the page, every account's verifications in one batch")
}
