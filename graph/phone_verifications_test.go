package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestPhoneVerificationThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("phone_verification").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}), "id")
	aid := str(acct["id"])

	g := gql(t, f.sk, `mutation($a: ID!) { createPhoneVerification(accountId: $a, input: {dateOfBirth: "1980-01-02"}) {
		id account phoneNumber type provider status failureType expires sandbox { expectedCodes } } }`, map[string]any{"a": aid})
	pv := obj(g.Data["createPhoneVerification"])
	require.Equal(t, "PENDING", pv["status"])
	require.Equal(t, "+12001001695", pv["phoneNumber"])
	require.Equal(t, []any{"123456"}, obj(pv["sandbox"])["expectedCodes"])
	require.NotNil(t, pv["expires"])

	g = gql(t, f.sk, `mutation($a: ID!, $id: ID!) { confirmPhoneVerification(accountId: $a, id: $id, code: "000000") { status failureType retriable category } }`,
		map[string]any{"a": aid, "id": pv["id"]})
	require.Equal(t, map[string]any{"status": "PENDING", "failureType": "CHALLENGE_FAILED", "retriable": true,
		"category": "RETRIABLE_WITH_NEW_DATA"}, g.Data["confirmPhoneVerification"])
	g = gql(t, f.sk, `mutation($a: ID!, $id: ID!) { confirmPhoneVerification(accountId: $a, id: $id, code: "123456") { status failureType sandbox { expectedCodes } } }`,
		map[string]any{"a": aid, "id": pv["id"]})
	require.Equal(t, map[string]any{"status": "VERIFIED", "failureType": nil, "sandbox": nil}, g.Data["confirmPhoneVerification"])

	g = gql(t, f.sk, `query($a: ID!, $id: ID!) {
		phoneVerification(accountId: $a, id: $id) { status accountNode { id } }
		account(id: $a) { status capabilities { name status } phoneVerifications { id status } }
		phoneVerifications(accountId: $a, first: 5, filter: {status: VERIFIED}) { edges { node { id } } pageInfo { hasNextPage } }
	}`, map[string]any{"a": aid, "id": pv["id"]})
	require.Equal(t, "VERIFIED", obj(g.Data["phoneVerification"])["status"])
	a := obj(g.Data["account"])
	require.Equal(t, "ACTIVE", a["status"])
	require.Equal(t, []any{map[string]any{"name": "PHONE_VERIFICATION", "status": "ACTIVE"}}, a["capabilities"])
	require.Equal(t, []any{map[string]any{"id": pv["id"], "status": "VERIFIED"}}, a["phoneVerifications"])
	require.Len(t, list(obj(g.Data["phoneVerifications"])["edges"]), 1)

	_, e := gqlError(t, f.sk, `mutation($a: ID!) { createPhoneVerification(accountId: $a, input: {phoneNumber: "12"}) { id } }`,
		map[string]any{"a": aid})
	require.Equal(t, "validation_errors", code(e))
	_, e = gqlError(t, f.pk, `mutation($a: ID!) { createPhoneVerification(accountId: $a) { id } }`, map[string]any{"a": aid})
	require.Equal(t, "forbidden", code(e))
}

func TestAccountPhoneVerificationsLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ accounts(first: 50) { edges { node { id phoneVerifications { id accountNode { id } } } } } }`
	mk := func(n int) {
		for range n {
			a := f.sk.CreateAccount(testenv.Individual())
			for range 2 {
				f.sk.CreatePhoneVerification(str(a["id"]), testenv.PhoneVerificationSpec{})
			}
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
