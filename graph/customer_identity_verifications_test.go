package graph_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

const civFields = `id status verificationUrl customerId pending verified failed livemode created updated`

// documentsInput is the complete set of documents as the mutation takes it.
func documentsInput() []any {
	var out []any
	for _, p := range testenv.IdentityDocuments() {
		out = append(out, map[string]any{"field": p.Field, "contentType": p.ContentType,
			"contentBase64": base64.StdEncoding.EncodeToString(p.Body)})
	}
	return out
}

func TestCustomerIdentityVerificationThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	cu := f.sk.CreateCustomer(testenv.Customer())

	g := gql(t, f.sk, `mutation($in: CreateCustomerIdentityVerificationInput!) {
		createCustomerIdentityVerification(input: $in) { `+civFields+` customer { id email } } }`,
		map[string]any{"in": map[string]any{"customerId": cu.ID.String()}})
	v := obj(g.Data["createCustomerIdentityVerification"])
	require.Equal(t, "INCOMPLETE", v["status"])
	require.Equal(t, cu.ID.String(), v["customerId"])
	require.Equal(t, cu.ID.String(), obj(v["customer"])["id"])
	require.Nil(t, v["pending"])
	require.Nil(t, v["verified"])
	require.Equal(t, false, v["livemode"])

	// The same verification over REST.
	rest := f.sk.Get("/v1/customer_identity_verifications/" + str(v["id"])).JSON()
	require.Equal(t, v["verificationUrl"], rest["verification_url"])
	require.Equal(t, float64(0), rest["pending"])

	g = gql(t, f.sk, `mutation($id: ID!, $docs: [IdentityDocumentUpload!]!) {
		uploadCustomerIdentityDocuments(id: $id, documents: $docs) { status pending } }`,
		map[string]any{"id": v["id"], "docs": documentsInput()})
	up := obj(g.Data["uploadCustomerIdentityDocuments"])
	require.Equal(t, "PENDING", up["status"])
	require.NotNil(t, up["pending"])

	query := `query($id: ID!, $cu: ID!) {
		customerIdentityVerification(id: $id) { status verified customer { id } }
		node(id: $id) { ... on CustomerIdentityVerification { id status } }
		customer(id: $cu) { identityVerifications { id status } }
	}`
	f.env.AwaitJobs(func() bool {
		g = gql(t, f.sk, query, map[string]any{"id": v["id"], "cu": cu.ID.String()})
		return obj(g.Data["customerIdentityVerification"])["status"] != "PENDING"
	})
	done := obj(g.Data["customerIdentityVerification"])
	require.Equal(t, "VERIFIED", done["status"])
	require.NotNil(t, done["verified"])
	require.Equal(t, cu.ID.String(), obj(done["customer"])["id"])
	require.Equal(t, v["id"], obj(g.Data["node"])["id"])
	require.Equal(t, []any{map[string]any{"id": v["id"], "status": "VERIFIED"}},
		obj(g.Data["customer"])["identityVerifications"])

	// Submit answers a concluded verification unchanged.
	g = gql(t, f.sk, `mutation($id: ID!) { submitCustomerIdentityVerification(id: $id) { status } }`, map[string]any{"id": v["id"]})
	require.Equal(t, "VERIFIED", obj(g.Data["submitCustomerIdentityVerification"])["status"])
}

func TestCustomerIdentityVerificationGraphQLErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	create := `mutation($in: CreateCustomerIdentityVerificationInput!) { createCustomerIdentityVerification(input: $in) { id } }`

	_, e := gqlError(t, f.sk, create, map[string]any{"in": map[string]any{"phoneNumber": "123", "ssn": "x", "email": "nope"}})
	require.Equal(t, "validation_errors", code(e))
	require.Len(t, e.Extensions["errors"], 3)

	_, e = gqlError(t, f.pk, create, map[string]any{"in": map[string]any{}})
	require.Equal(t, "forbidden", code(e))
	_, e = gqlError(t, f.live, create, map[string]any{"in": map[string]any{}})
	require.Equal(t, "provider_not_configured", code(e))
	require.Equal(t, 503, status(e))

	vid := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{FirstName: "Ada"}).ID.String()
	upload := `mutation($id: ID!, $docs: [IdentityDocumentUpload!]!) { uploadCustomerIdentityDocuments(id: $id, documents: $docs) { status } }`
	_, e = gqlError(t, f.sk, upload, map[string]any{"id": vid, "docs": []any{
		map[string]any{"field": "selfie", "contentBase64": "not base64!"},
		map[string]any{"field": "id_front", "contentType": "image/png", "contentBase64": base64.StdEncoding.EncodeToString(testenv.JPEG)},
	}})
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, []any{"is not valid base64"}, obj(e.Extensions["errors"])["selfie"])
	require.Contains(t, obj(e.Extensions["errors"]), "id_front")

	// Another merchant's verification is missing.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	other := f.env.Client(keys.Sandbox.Secret)
	_, e = gqlError(t, other, `query($id: ID!) { customerIdentityVerification(id: $id) { id } }`, map[string]any{"id": vid})
	require.Equal(t, "resource_missing", code(e))
	g := gql(t, other, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": vid})
	require.Nil(t, g.Data["node"])
}

// Customers' verifications load in one batch: the statements of a page
// of customers with their verifications do not grow with the page.
func TestCustomerIdentityVerificationsLoadInOneBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	query := `{ customers(first: 50) { edges { node { id identityVerifications { id status customer { id } } } } } }`
	mk := func(n int) {
		for range n {
			cu := f.sk.CreateCustomer(testenv.Customer())
			for range 2 {
				f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{CustomerID: cu.ID.String()})
			}
		}
	}
	mk(1)
	few := gql(t, f.sk, query, nil)
	mk(4)
	many := gql(t, f.sk, query, nil)
	edges := list(obj(many.Data["customers"])["edges"])
	require.Len(t, edges, 5)
	for _, e := range edges {
		require.Len(t, obj(obj(e)["node"])["identityVerifications"], 2)
	}
	require.Equal(t, few.Statements, many.Statements)
	require.Equal(t, 3, many.Statements, "the credential, the page, every customer's verifications in one batch")
}
