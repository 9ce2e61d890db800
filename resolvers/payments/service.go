// Package payments is the payments area of the operation layer: payment
// methods (cards, bank accounts, wallet credentials) and bank linking. REST
// and GraphQL call this Service's families; the pure card and bank rules
// live in internal/domain/card and internal/domain/bank.
package payments

import "github.com/frame-oss/payments-server/resolvers/op"

// Service is the area: one family per resource.
type Service struct {
	*op.Kit
	accounts AccountCards

	PaymentMethods *PaymentMethods
	BankLinks      *BankLinks
	ClientConfig   ClientConfig
	// DeviceAttestations is the SDK's device attestation (device_attestation.go).
	DeviceAttestations *DeviceAttestations
}

// New returns the area's service over kit; accounts re-evaluates an
// account's card requirement when its cards change.
func New(kit *op.Kit, accounts AccountCards) *Service {
	s := &Service{Kit: kit, accounts: accounts}
	s.PaymentMethods, s.BankLinks = newPaymentMethods(s), &BankLinks{svc: s}
	s.DeviceAttestations = newDeviceAttestations(s)
	return s
}
