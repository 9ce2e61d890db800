package models

// Redacted is the payment method as a browser holding a checkout secret
// sees it inside a transfer (spec doc 2 §4.8, "payment methods redacted";
// §2.7: "transfer payment-method objects carry id, object, type, status,
// livemode, created, updated"): those members and nothing else — no card
// or bank details, no billing address, no owner. The copy renders only
// them in REST (the redacts tag of PaymentMethod's redacted field, in
// that order) and leaves the others null in GraphQL. A nil method stays
// nil.
func (pm *PaymentMethod) Redacted() *PaymentMethod {
	if pm == nil {
		return nil
	}
	return &PaymentMethod{Tenant: pm.Tenant, ID: pm.ID, Type: pm.Type, Status: pm.Status,
		Created: pm.Created, Updated: pm.Updated, redacted: true}
}

// IsRedacted says whether pm is a Redacted copy.
func (pm *PaymentMethod) IsRedacted() bool { return pm.redacted }
