package accounts

// Event types of accounts and capabilities (API-DECISIONS §4).
const (
	EventAccountCreated      = "account.created"
	EventAccountUpdated      = "account.updated"
	EventAccountActivated    = "account.activated"
	EventAccountRestricted   = "account.restricted"
	EventAccountDisabled     = "account.disabled"
	EventCapabilityActivated = "capability.activated"
	EventCapabilityDisabled  = "capability.disabled"
)
