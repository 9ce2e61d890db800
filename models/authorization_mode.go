package models

// AuthorizationMode is whether a successful payment is captured at once
// (automatic) or held as an authorization until captured (manual), on
// transfers, charge intents and checkout sessions alike.
type AuthorizationMode string

// Authorization modes.
const (
	AuthorizationAutomatic AuthorizationMode = "automatic"
	AuthorizationManual    AuthorizationMode = "manual"
)

// AuthorizationModes is the closed set of authorization modes.
var AuthorizationModes = Enum(AuthorizationAutomatic, AuthorizationManual)
