package testenv

import "github.com/frame-oss/payments-server/models"

// CreateIdentityVerification starts an identity verification run of
// accountID (POST /v1/accounts/{id}/identity_verifications) and returns it
// as created: pending, since the run concludes in a job, so a test that
// needs the outcome awaits it. The account is the whole request, so there
// is no spec. Anything but 201 fails the test; a test of the create's
// refusals or wire shape posts its own request.
func (c *Client) CreateIdentityVerification(accountID string) *models.IdentityVerification {
	c.env.T.Helper()
	return create[models.IdentityVerification](c, "identity verification",
		"/v1/accounts/"+accountID+"/identity_verifications", nil)
}
