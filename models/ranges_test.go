package models

import (
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Every member out of range is reported at its JSON path, the operation's
// "input" wrapper adding nothing; values that fit pass.
func TestCheckRangesReportsEveryMemberAtItsPath(t *testing.T) {
	big, small := 1<<31, -1<<31-1
	farFuture, ok := int64(MaxUnixSeconds+1), int64(MaxUnixSeconds)
	month := FlexInt(1 << 40)
	params := map[string]any{"id": "x", "input": &CreateCouponInput{
		MaxRedemptions: &big, DurationInMonths: &small, ValidUntil: &farFuture, ValidFrom: &ok,
	}}
	e := apierr.As(CheckRanges(params))
	require.NotNil(t, e)
	require.Equal(t, apierr.CodeValidation, e.Code)
	require.Equal(t, []string{"duration_in_months", "max_redemptions", "valid_until"}, sortedKeys(e.Fields))

	nested := &CreateChargeIntentInput{PaymentMethodData: &PaymentMethodDataInput{ExpMonth: &month}}
	e = apierr.As(CheckRanges(nested))
	require.NotNil(t, e)
	require.Equal(t, "payment_method_data.exp_month", e.Param)

	fits := 1<<31 - 1
	require.NoError(t, CheckRanges(&CreateCouponInput{MaxRedemptions: &fits, ValidFrom: &ok}))
	require.NoError(t, CheckRanges(nil))
	require.NoError(t, CheckRanges(struct{ At time.Time }{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)}))
	require.Error(t, CheckRanges(struct{ At time.Time }{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}))
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
