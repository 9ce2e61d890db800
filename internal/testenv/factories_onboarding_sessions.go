package testenv

import (
	"net/http"

	"github.com/frame-oss/payments-server/models"
)

// OnboardingSessionSpec describes a hosted onboarding session of an
// account (POST /v1/onboarding_sessions) or, on the SDK's
// /v1/onboarding/sessions, of a customer; zero values are left out.
type OnboardingSessionSpec struct {
	AccountID  string
	CustomerID string
	EntryPoint string
	Metadata   map[string]string
	ReturnURL  string
	// Steps limits the session to these steps; nil lets the server choose
	// from the account's requirements.
	Steps []string
}

// OnboardingSession is a session of accountID with the steps its
// requirements call for.
func OnboardingSession(accountID string) OnboardingSessionSpec {
	return OnboardingSessionSpec{AccountID: accountID}
}

// RESTBody renders s as a POST /v1/onboarding_sessions body, which the
// SDK's POST /v1/onboarding/sessions takes too.
func (s OnboardingSessionSpec) RESTBody() map[string]any {
	return fields{"account_id": s.AccountID, "customer_id": s.CustomerID, "entry_point": s.EntryPoint,
		"metadata": s.Metadata, "return_url": s.ReturnURL, "steps": s.Steps}.set()
}

// CustomerOnboardingSession is a session of customerID (the SDK family
// only) with the default steps.
func CustomerOnboardingSession(customerID string) OnboardingSessionSpec {
	return OnboardingSessionSpec{CustomerID: customerID}
}

// CreateOnboardingSession creates spec's session over REST; anything but
// 201 fails the test. Its ClientSecret is the account holder's credential
// (see OnboardingHolder).
func (c *Client) CreateOnboardingSession(spec OnboardingSessionSpec) *models.OnboardingSession {
	c.env.T.Helper()
	return create[models.OnboardingSession](c, "onboarding session", "/v1/onboarding_sessions", spec.RESTBody())
}

// OnboardingHolder opens an onboarding session of accountID and returns a
// client holding its secret: the account holder in the hosted flow.
func (c *Client) OnboardingHolder(accountID string) *Client {
	c.env.T.Helper()
	s := c.CreateOnboardingSession(OnboardingSession(accountID))
	return c.env.Client(*s.ClientSecret)
}

// SDKOnboardingSessionPath is where the SDK's family of onboarding
// sessions lives: the same sessions, in the SDK's shape.
const SDKOnboardingSessionPath = "/v1/onboarding/sessions"

// CreateSDKOnboardingSession creates spec's session through the SDK's
// family and returns it in the SDK's shape; anything but 201 fails the
// test.
func (c *Client) CreateSDKOnboardingSession(spec OnboardingSessionSpec) *models.SDKOnboardingSession {
	c.env.T.Helper()
	return create[models.SDKOnboardingSession](c, "SDK onboarding session", SDKOnboardingSessionPath, spec.RESTBody())
}

// SetOnboardingPayout records paymentMethodID as the payout method of
// the account of the SDK session sessionID (its payout step) and returns
// the session; anything but 200 fails the test.
func (c *Client) SetOnboardingPayout(sessionID, paymentMethodID string) *models.SDKOnboardingSession {
	c.env.T.Helper()
	return post[models.SDKOnboardingSession](c, "set onboarding payout", SDKOnboardingSessionPath+"/"+sessionID+"/payout",
		map[string]any{"payout_method_id": paymentMethodID}, http.StatusOK)
}
