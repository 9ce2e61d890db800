package models

// The client configuration the real service's SDK reads before it collects
// card data or device signals (frame-node's ConfigurationAPI and WalletAPI;
// docs/sandbox.md, "Resources from the SDK"). None is stored: the sandbox
// answers fixed test values, and production mode answers 503
// provider_not_configured, since no such provider ships with this server.

// EvervaultConfiguration is what the browser needs to encrypt card data
// with Evervault (GET /v1/config/evervault).
type EvervaultConfiguration struct {
	AppID  *string `json:"app_id"`
	TeamID *string `json:"team_id"`
}

// SiftConfiguration is what the browser needs to send device signals to
// Sift (GET /v1/config/sift).
type SiftConfiguration struct {
	AccountID *string `json:"account_id"`
	BeaconKey *string `json:"beacon_key"`
}

// GooglePayConfiguration is what an app needs to offer Google Pay
// (GET /v1/client/wallet/google_pay): the merchant's identifier, the
// Google Pay environment, and the processor that decrypts the token.
type GooglePayConfiguration struct {
	Identifier   *string `json:"identifier"`
	Environment  *string `json:"environment"`
	Processor    *string `json:"processor"`
	ProcessorKey *string `json:"processor_key"`
}
