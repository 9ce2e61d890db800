package resolvers

import (
	"encoding/base64"
	"strings"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
)

// Customer identity verifications load by id (nodes) and by customer (the
// Customer.identityVerifications edge).
var (
	civLoader = nodeLoader("customerIdentityVerification", func(r *Resolver) batch[*models.CustomerIdentityVerification] {
		return r.Svc.Accounts.CustomerIdentity.ByIDs
	})
	civsOfCustomerLoader = loader("customerIdentityVerificationsOfCustomer", func(r *Resolver) batch[[]*models.CustomerIdentityVerification] {
		return r.Svc.Accounts.CustomerIdentity.OfCustomers
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(civsOfCustomerLoader, "identityVerifications", func(c *models.Customer) string { return c.ID.String() })
	_ = edge(customerLoader, "customer", func(v *models.CustomerIdentityVerification) string { return idKey(v.CustomerID) })
)

// uploadInput decodes the mutation's base64 documents into what the
// operation takes, as REST's multipart reader does: each document goes
// through models.ReadDocument, which keeps only its digest and first
// bytes; one that is not base64 is marked for the operation to refuse.
func uploadInput(docs []*model.IdentityDocumentUpload) *models.UploadIdentityDocumentsInput {
	in := &models.UploadIdentityDocumentsInput{}
	for i, d := range docs {
		if i == models.MaxDocumentsPerUpload {
			in.TooMany = true
			break
		}
		declared := ""
		if d.ContentType != nil {
			declared = *d.ContentType
		}
		doc, err := models.ReadDocument(d.Field, declared, base64.NewDecoder(base64.StdEncoding, strings.NewReader(d.ContentBase64)))
		if err != nil {
			doc = &models.IdentityDocument{Field: d.Field, DeclaredType: declared, Unreadable: true}
		}
		in.Documents = append(in.Documents, doc)
	}
	return in
}
