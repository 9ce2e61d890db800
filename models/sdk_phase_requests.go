package models

import (
	"encoding/json"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// sdkPhaseMembers are the members the real service's SDK sends on a
// phase (CreateProductPhaseParams, UpdateProductPhaseParams) beside the
// spec's. amount is amount_cents under the Node SDK's name, price under
// the Ruby SDK's (minor units all three);
// a product's phase keeps metadata, as the SDK sends it (API-DECISIONS
// §9), where a subscription's phase keeps none; interval and
// interval_count have no meaning on a phase here (a phase counts periods
// of its subscription, period_count), so they are answered with the
// spec's validation error rather than dropped unseen.
type sdkPhaseMembers struct {
	Amount        *int64          `json:"amount" range:"amount" into:"AmountCents"`
	Price         *int64          `json:"price" range:"amount" into:"AmountCents"`
	Interval      json.RawMessage `json:"interval"`
	IntervalCount json.RawMessage `json:"interval_count"`
	Metadata      MetadataInput   `json:"metadata"`
}

// check reports the SDK's members that carry no meaning here, and an
// amount or a price that contradicts amount_cents.
func (m sdkPhaseMembers) check(f *apierr.Fields, prefix string, amountCents *int64) {
	m.checkAmount(f, prefix, amountCents)
	if m.Interval != nil {
		f.Add(prefix+"interval", "is not accepted: a phase lasts period_count periods of its subscription")
	}
	if m.IntervalCount != nil {
		f.Add(prefix+"interval_count", "is not accepted: a phase lasts period_count periods of its subscription")
	}
	checkMetadata(f, prefix+"metadata", m.Metadata)
}

// checkAmount reports an amount or a price that contradicts amount_cents
// (or each other).
func (m sdkPhaseMembers) checkAmount(f *apierr.Fields, prefix string, amountCents *int64) {
	if m.Amount != nil && amountCents != nil && *m.Amount != *amountCents {
		f.Add(prefix+"amount", "must equal amount_cents when both are sent (amount is amount_cents under another name)")
	}
	if m.Price != nil && amountCents != nil && *m.Price != *amountCents {
		f.Add(prefix+"price", "must equal amount_cents when both are sent (price is amount_cents under another name)")
	}
}

// refuseMetadata reports metadata, which a subscription's phases do not
// keep.
func (m sdkPhaseMembers) refuseMetadata(f *apierr.Fields, prefix string) {
	if m.Metadata != nil {
		f.Add(prefix+"metadata", "is not accepted: a subscription's phases keep no metadata")
	}
}
