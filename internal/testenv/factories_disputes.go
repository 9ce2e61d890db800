package testenv

import "github.com/frame-oss/payments-server/models"

// DisputeCard is the sandbox card whose capture opens a chargeback on its
// charge (API-DECISIONS §6).
const DisputeCard = "4000000000000259"

// OpenDispute opens a sandbox dispute on chargeID through the test helper
// (POST /v1/test_helpers/charges/{id}/dispute), with reason when it is not
// empty; anything but 201 fails the test.
func (c *Client) OpenDispute(chargeID, reason string) *models.Dispute {
	c.env.T.Helper()
	return create[models.Dispute](c, "dispute", "/v1/test_helpers/charges/"+chargeID+"/dispute",
		fields{"reason": reason}.set())
}
