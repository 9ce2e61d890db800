package models

import (
	"encoding/json"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// sdkCouponMembers are the members the real service's SDK sends on a
// coupon create (CreateCouponParams) beside the spec's. percent_off is
// discount_value of a percentage under another name (a percent, 0-100,
// both) and currency is discount_value_currency; both are carried into the
// spec's members when those were not sent, so the idempotency fingerprint
// and the stored coupon see one value. amount_off is refused: the SDK does
// not state its unit (minor units, as money is elsewhere, or major units,
// as discount_value is), and guessing would misprice a coupon a
// hundredfold. The SDK's metadata and name are the coupon's own
// (CreateCouponInput, UpdateCouponInput).
type sdkCouponMembers struct {
	AmountOff  json.RawMessage `json:"amount_off"`
	PercentOff *Decimal        `json:"percent_off" into:"DiscountValue"`
	Currency   *string         `json:"currency" into:"DiscountValueCurrency"`

	carried carried // the member the value and currency were read under
}

// check reports the SDK's members that carry no meaning here, and those
// that contradict the spec's member of the same meaning.
func (m *sdkCouponMembers) check(f *apierr.Fields, in *CreateCouponInput) {
	if m.AmountOff != nil {
		f.Add("amount_off", "is not accepted: its unit is not stated; send discount_value, "+
			"the amount in major units as a decimal string (\"5.00\"), with discount_value_currency")
	}
	if m.PercentOff != nil {
		switch {
		case in.DiscountType != nil && *in.DiscountType == "fixed_amount":
			f.Add("percent_off", "is only allowed for percentage")
			if m.carried.name("discount_value") == "percent_off" {
				f.Add("discount_value", "is required")
			}
		case m.carried.name("discount_value") != "percent_off" && !sameDecimal(*m.PercentOff, *in.DiscountValue):
			f.Add("percent_off", "must equal discount_value when both are sent (percent_off is discount_value under another name)")
		}
	}
	if m.Currency != nil && m.carried.name("discount_value_currency") != "currency" && !strings.EqualFold(*m.Currency, *in.DiscountValueCurrency) {
		f.Add("currency", "must equal discount_value_currency when both are sent (currency is discount_value_currency under another name)")
	}
}

// sameDecimal reports two decimals of equal value ("10" and "10.00").
func sameDecimal(a, b Decimal) bool {
	x, okA := a.Hundredths()
	y, okB := b.Hundredths()
	return okA && okB && x == y || a == b
}
