package testenv

import "github.com/frame-oss/payments-server/models"

// PhoneVerificationSpec describes a phone verification of an account (POST
// /v1/accounts/{id}/phone_verifications). The zero spec verifies the
// account's own phone number by SMS.
type PhoneVerificationSpec struct {
	Type        string // "sms" or "call"
	PhoneNumber string
	DateOfBirth string
}

// SandboxPhoneCode is the code the sandbox's SMS provider accepts.
const SandboxPhoneCode = "123456"

// RESTBody renders s as a POST /v1/accounts/{id}/phone_verifications body.
func (s PhoneVerificationSpec) RESTBody() map[string]any {
	return fields{"type": s.Type, "phone_number": s.PhoneNumber, "date_of_birth": s.DateOfBirth}.set()
}

// CreatePhoneVerification starts spec's verification of accountID over
// REST; anything but 201 fails the test.
func (c *Client) CreatePhoneVerification(accountID string, spec PhoneVerificationSpec) *models.PhoneVerification {
	c.env.T.Helper()
	return create[models.PhoneVerification](c, "phone verification", phoneVerificationsPath(accountID), spec.RESTBody())
}

// ConfirmPhoneVerification answers verification pvID of accountID with
// code; anything but 200 fails the test.
func (c *Client) ConfirmPhoneVerification(accountID, pvID, code string) *models.PhoneVerification {
	c.env.T.Helper()
	return post[models.PhoneVerification](c, "confirm phone verification",
		phoneVerificationsPath(accountID)+"/"+pvID+"/confirm", map[string]any{"code": code}, 200)
}

// VerifyPhone verifies accountID's phone with the sandbox code and returns
// the verified attempt.
func (c *Client) VerifyPhone(accountID string) *models.PhoneVerification {
	c.env.T.Helper()
	pv := c.CreatePhoneVerification(accountID, PhoneVerificationSpec{})
	return c.ConfirmPhoneVerification(accountID, pv.ID.String(), SandboxPhoneCode)
}

func phoneVerificationsPath(accountID string) string {
	return "/v1/accounts/" + accountID + "/phone_verifications"
}
