package models

// WalletType is the wallet a single-use card credential came from.
type WalletType string

// Wallet types.
const (
	WalletApplePay  WalletType = "apple_pay"
	WalletGooglePay WalletType = "google_pay"
)

// WalletTypes is the closed set of wallet types.
var WalletTypes = Enum(WalletApplePay, WalletGooglePay)
