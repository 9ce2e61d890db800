package accounts

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CustomerIdentity is the customer identity verification family of the
// area: a verification of a customer (customer_identity_create.go), its
// documents and submission (customer_identity_documents.go), its reads
// (here) and the sandbox provider's verdict, a job
// (customer_identity_conclude.go).
type CustomerIdentity struct {
	op.Reader[models.CustomerIdentityVerification, op.NoFilter]
	// OfCustomers reads the newest RecentChildren verifications of many
	// customers in one statement (GraphQL's
	// Customer.identityVerifications).
	OfCustomers op.Batch[[]*models.CustomerIdentityVerification]
	svc         *Service
}

var civTable = &op.Table[models.CustomerIdentityVerification]{Resource: "customer_identity_verification", Allow: civActors}

func newCustomerIdentity(s *Service) *CustomerIdentity {
	return &CustomerIdentity{Reader: op.Read[models.CustomerIdentityVerification, op.NoFilter](s.Kit, civTable), svc: s,
		OfCustomers: (&op.Children[models.CustomerIdentityVerification]{Table: civTable, Parent: "customer",
			Column: "customer_id", Limit: RecentChildren}).Bind(s.Kit)}
}
