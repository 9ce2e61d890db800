package models

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Redacted is the payment method as a browser holding a checkout secret
// sees it inside a transfer (spec doc 2 §4.8, "payment methods redacted";
// §2.7: "transfer payment-method objects carry id, object, type, status,
// livemode, created, updated"): those members and nothing else — no card
// or bank details, no billing address, no owner. The copy renders only
// them in REST and leaves the others null in GraphQL. A nil method stays
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

// redactedPaymentMethod is the wire shape of a Redacted copy.
type redactedPaymentMethod struct {
	ID       uuid.UUID                 `json:"id"`
	Object   Object[paymentMethodKind] `json:"object"`
	Type     PaymentMethodType         `json:"type"`
	Status   PaymentMethodStatus       `json:"status"`
	Livemode bool                      `json:"livemode"`
	Created  wire.Timestamp            `json:"created"`
	Updated  wire.Timestamp            `json:"updated"`
}

// MarshalJSON renders a Redacted copy as its seven members, any other
// payment method in full, with the SDKs' `customer` beside the spec's
// `customer_id` (the Ruby SDK reads it after an attach).
func (pm PaymentMethod) MarshalJSON() ([]byte, error) {
	if pm.redacted {
		return json.Marshal(redactedPaymentMethod{ID: pm.ID, Type: pm.Type, Status: pm.Status, Livemode: pm.Livemode,
			Created: pm.Created, Updated: pm.Updated})
	}
	type plain PaymentMethod
	obj, err := json.Marshal(plain(pm))
	if err != nil {
		return nil, err
	}
	return withSDKMembers(obj, sdkMember{"customer", pm.CustomerID})
}
