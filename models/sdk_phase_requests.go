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
	Amount        *int64          `json:"amount" range:"amount"`
	Price         *int64          `json:"price" range:"amount"`
	Interval      json.RawMessage `json:"interval"`
	IntervalCount json.RawMessage `json:"interval_count"`
	Metadata      MetadataInput   `json:"metadata"`
}

// readSDKPhaseMembers reads the SDK's members of a phase body b and
// carries amount, else price, into amountCents when amount_cents itself
// was not sent.
func readSDKPhaseMembers(b []byte, amountCents **int64) (sdkPhaseMembers, error) {
	var m sdkPhaseMembers
	if err := json.Unmarshal(b, &m); err != nil {
		return m, err
	}
	for _, sdkName := range []*int64{m.Amount, m.Price} {
		if *amountCents == nil && sdkName != nil {
			v := *sdkName
			*amountCents = &v
		}
	}
	return m, nil
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

// UnmarshalJSON reads the spec's members and the SDK's (sdkPhaseMembers).
func (in *CreatePhaseInput) UnmarshalJSON(b []byte) error {
	type plain CreatePhaseInput
	if err := json.Unmarshal(b, (*plain)(in)); err != nil {
		return err
	}
	var err error
	in.sdk, err = readSDKPhaseMembers(b, &in.AmountCents)
	return err
}
