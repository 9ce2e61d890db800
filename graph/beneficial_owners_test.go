package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const ownerFields = `id accountId status firstName middleName lastName suffix email roles percentOwnership livemode created updated`

func TestBeneficialOwnersThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Business().WithCapabilities("kyb").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}), "id")
	aid := str(acct["id"])

	create := `mutation($a: ID!, $in: CreateBeneficialOwnerInput!) { createBeneficialOwner(accountId: $a, input: $in) { ` + ownerFields + ` } }`
	g := gql(t, f.sk, create, map[string]any{"a": aid, "in": map[string]any{"firstName": "Grace", "lastName": "Hopper",
		"email": "grace@example.com", "roles": []string{"OWNER", "CONTROLLER"}, "dob": "1980-01-02", "ssn": "123456789",
		"addressLine1": "3 Navy Way", "city": "Arlington", "state": "VA", "postalCode": "22201", "percentOwnership": 75}})
	o := obj(g.Data["createBeneficialOwner"])
	require.Equal(t, "COMPLETED", o["status"])
	require.Equal(t, []any{"OWNER", "CONTROLLER"}, o["roles"])
	require.Equal(t, 75.0, o["percentOwnership"])

	g = gql(t, f.sk, create, map[string]any{"a": aid, "in": map[string]any{"invite": true, "firstName": "Alan",
		"lastName": "Turing", "email": "alan@example.com", "roles": []string{"CONTROLLER"}}})
	invited := obj(g.Data["createBeneficialOwner"])
	require.Equal(t, "INVITE_SENT", invited["status"])

	g = gql(t, f.sk, `mutation($a: ID!, $id: ID!) { resendBeneficialOwnerInvite(accountId: $a, id: $id) { id status } }`,
		map[string]any{"a": aid, "id": invited["id"]})
	require.Equal(t, "INVITE_SENT", obj(g.Data["resendBeneficialOwnerInvite"])["status"])

	g = gql(t, f.sk, `mutation($a: ID!, $id: ID!) { updateBeneficialOwner(accountId: $a, id: $id, input: {email: "", roles: [OWNER]}) { email roles } }`,
		map[string]any{"a": aid, "id": o["id"]})
	require.Equal(t, map[string]any{"email": "grace@example.com", "roles": []any{"OWNER"}}, obj(g.Data["updateBeneficialOwner"]))

	gql(t, f.sk, `mutation($a: ID!, $id: ID!) { updateBeneficialOwner(accountId: $a, id: $id, input: {roles: [OWNER]}) { id } }`,
		map[string]any{"a": aid, "id": invited["id"]})
	// Roster rules fail as validation errors (no controller now).
	_, e := gqlError(t, f.sk, `mutation($a: ID!) { confirmBeneficialOwners(accountId: $a) { id } }`, map[string]any{"a": aid})
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, 422, status(e))

	gql(t, f.sk, `mutation($a: ID!, $id: ID!) { updateBeneficialOwner(accountId: $a, id: $id, input: {roles: [OWNER, CONTROLLER]}) { id } }`,
		map[string]any{"a": aid, "id": o["id"]})
	g = gql(t, f.sk, `mutation($a: ID!) { confirmBeneficialOwners(accountId: $a) { capabilities { name status } } }`, map[string]any{"a": aid})
	require.Equal(t, []any{map[string]any{"name": "KYB", "status": "ACTIVE"}}, obj(g.Data["confirmBeneficialOwners"])["capabilities"])

	g = gql(t, f.sk, `query($a: ID!, $id: ID!) { beneficialOwner(accountId: $a, id: $id) { id account { id } } node(id: $id) { ... on BeneficialOwner { status } } }`,
		map[string]any{"a": aid, "id": invited["id"]})
	require.Equal(t, aid, obj(obj(g.Data["beneficialOwner"])["account"])["id"])
	require.Equal(t, "INVITE_SENT", obj(g.Data["node"])["status"])

	g = gql(t, f.sk, `mutation($a: ID!, $id: ID!) { deleteBeneficialOwner(accountId: $a, id: $id) }`, map[string]any{"a": aid, "id": invited["id"]})
	require.Equal(t, true, g.Data["deleteBeneficialOwner"])
	_, e = gqlError(t, f.sk, `query($a: ID!, $id: ID!) { beneficialOwner(accountId: $a, id: $id) { id } }`, map[string]any{"a": aid, "id": invited["id"]})
	require.Equal(t, "resource_missing", code(e))
}

func TestAccountBeneficialOwnersLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ accounts(first: 50) { edges { node { id beneficialOwners { id firstName account { id } } } } } }`
	mk := func(n int) {
		for range n {
			a := f.sk.CreateAccount(testenv.Business())
			for range 2 {
				f.sk.CreateBeneficialOwner(str(a["id"]), testenv.PartialOwner("owner"))
			}
		}
	}
	mk(1)
	few := gql(t, f.sk, query, nil)
	mk(5)
	many := gql(t, f.sk, query, nil)
	require.Len(t, list(obj(many.Data["accounts"])["edges"]), 6)
	require.Equal(t, few.Statements, many.Statements, "statements are a constant of the query's shape")
	require.Equal(t, 3, many.Statements, "the credential, the page, every account's owners in one batch (their accounts are the page's)")
	t.Logf("accounts with owners and their account: %d statements", many.Statements)
}
