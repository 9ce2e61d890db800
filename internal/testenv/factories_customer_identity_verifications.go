package testenv

import "github.com/frame-oss/payments-server/models"

// CustomerIdentityVerificationPath is where customer identity
// verifications live.
const CustomerIdentityVerificationPath = "/v1/customer_identity_verifications"

// CustomerIdentityVerificationSpec describes a customer identity
// verification: the identity a payer claims, or the customer it verifies.
// Zero values are left out of the request, so the zero spec claims nothing
// and the verification is judged on its documents alone; the sandbox
// judges by PhoneNumber (docs/sandbox).
type CustomerIdentityVerificationSpec struct {
	CustomerID  string
	FirstName   string
	LastName    string
	DateOfBirth string // YYYY-MM-DD
	Email       string
	PhoneNumber string
	SSN         string // the full SSN; the server keeps only its last four
}

// RESTBody renders s as a POST /v1/customer_identity_verifications body.
func (s CustomerIdentityVerificationSpec) RESTBody() map[string]any {
	return fields{"customer_id": s.CustomerID, "first_name": s.FirstName, "last_name": s.LastName,
		"date_of_birth": s.DateOfBirth, "email": s.Email, "phone_number": s.PhoneNumber, "ssn": s.SSN}.set()
}

// CreateCustomerIdentityVerification creates spec's verification over
// REST; anything but 201 fails the test.
func (c *Client) CreateCustomerIdentityVerification(spec CustomerIdentityVerificationSpec) *models.CustomerIdentityVerification {
	c.env.T.Helper()
	return create[models.CustomerIdentityVerification](c, "customer identity verification",
		CustomerIdentityVerificationPath, spec.RESTBody())
}
