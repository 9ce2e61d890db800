package models

// IdentityProvider names the provider that ran an identity verification.
// The server ships one, the sandbox's; a filter naming another matches no
// run and is refused.
type IdentityProvider string

// IdentityProviderSandbox is the sandbox's identity provider.
const IdentityProviderSandbox IdentityProvider = "sandbox"

// IdentityProviders is the closed set of identity providers.
var IdentityProviders = Enum(IdentityProviderSandbox)
