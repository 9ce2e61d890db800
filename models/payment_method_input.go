package models

import "github.com/frame-oss/payments-server/internal/platform/apierr"

// CreatePaymentMethodInput is the body of POST /v1/payment_methods (spec
// doc 2 §4.3). The card number and CVC are used to validate and
// fingerprint the card, then dropped: they are never stored, logged or
// echoed (the idempotency fingerprint is an HMAC of the parameters).
type CreatePaymentMethodInput struct {
	Type     *PaymentMethodType `json:"type"`
	Customer *string            `json:"customer"`
	Account  *string            `json:"account"`
	// AccountID is silently ignored on create (spec); it is read only to
	// be ignored explicitly.
	AccountID  *string       `json:"account_id"`
	CardNumber *string       `json:"card_number"`
	ExpMonth   *FlexInt      `json:"exp_month"`
	ExpYear    *FlexInt      `json:"exp_year"`
	CVC        *string       `json:"cvc"`
	Billing    *AddressInput `json:"billing"`
	// Wallet carries a wallet credential (Apple Pay, Google Pay) instead
	// of a card number.
	Wallet        *WalletInput     `json:"_wallet"`
	AccountNumber *string          `json:"account_number"`
	RoutingNumber *string          `json:"routing_number"`
	AccountType   *BankAccountType `json:"account_type"`
}

// WalletInput is a wallet credential as the browser SDK sends it. Only its
// type is read: the sandbox issues a deterministic single-use card for it.
type WalletInput struct {
	Type *WalletType `json:"type"`
}

// AttachPaymentMethodInput is the body of POST .../attach: exactly one of
// customer or account. account_id is not a parameter: sending it is the
// documented error.
type AttachPaymentMethodInput struct {
	Customer  *string `json:"customer"`
	Account   *string `json:"account"`
	AccountID *string `json:"account_id"`
}

// UpdatePaymentMethodInput is the body of PATCH /v1/payment_methods/{id}.
type UpdatePaymentMethodInput struct {
	ExpMonth *FlexInt      `json:"exp_month"`
	ExpYear  *FlexInt      `json:"exp_year"`
	Billing  *AddressInput `json:"billing"`
}

// ConnectBankInput is the body of POST /v1/payment_methods/connect_plaid,
// as the real service's SDK sends it: a bank-linking token for an account
// or a customer. Its account_id is the linking provider's id of the bank
// account, not an account of this API.
type ConnectBankInput struct {
	Account         *string `json:"account"`
	Customer        *string `json:"customer"`
	PublicToken     *string `json:"public_token"`
	BankAccountID   *string `json:"account_id"`
	InstitutionName *string `json:"institution_name"`
	Subtype         *string `json:"subtype"`
}

// ValidateAddressInput checks an address input under path.
func ValidateAddressInput(f *apierr.Fields, in *AddressInput, path string) { in.validate(f, path) }

// CheckText is the shared text check for the operation layer's inputs.
func CheckText(f *apierr.Fields, path string, s *string, max int, required bool) bool {
	return checkText(f, path, s, max, required)
}
