package jsonbody_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// alternativeMembersGolden holds what the bodies below decode and validate
// to: the error of Decode (status, code, message, param, field problems),
// the input as it then marshals (what its idempotency fingerprint and the
// operation see) and the problems of its validation. It was written from
// the request types as they were when each decoded its alternative members
// by hand, so the declared alternatives must read every body the same.
// UPDATE_GOLDEN=1 rewrites it.
const alternativeMembersGolden = "testdata/alternative_members.golden"

// decodedAs decodes body into a new In through Decode, then validates it
// with check; it renders both outcomes.
func decodedAs[In any](body string, check func(*In) error) string {
	var in In
	r := httptest.NewRequest("POST", "/v1/x", strings.NewReader(body))
	var b strings.Builder
	if err := jsonbody.Decode(r, &in); err != nil {
		b.WriteString("decode: " + renderAPIError(err))
		return b.String()
	}
	marshaled, err := json.Marshal(&in)
	if err != nil {
		marshaled = []byte("marshal: " + err.Error())
	}
	fmt.Fprintf(&b, "input: %s\n", marshaled)
	if err := check(&in); err != nil {
		b.WriteString("check: " + renderAPIError(err))
	} else {
		b.WriteString("check: ok\n")
	}
	return b.String()
}

func renderAPIError(err error) string {
	e := apierr.As(err)
	if e == nil {
		return "not an API error: " + err.Error() + "\n"
	}
	fields, _ := json.Marshal(e.Fields)
	return fmt.Sprintf("%d %s %q param=%q fields=%s\n", e.Status, e.Code, e.Message, e.Param, fields)
}

// problems renders err for a line that goes on.
func problems(err error) string {
	if err == nil {
		return "ok"
	}
	return strings.TrimSuffix(renderAPIError(err), "\n")
}

func fieldsErr(check func(*apierr.Fields)) error {
	var f apierr.Fields
	check(&f)
	return f.Err()
}

var monthly = models.SubscriptionPhaseParent{Currency: "USD", Recurring: &models.Recurring{Interval: "month", IntervalCount: 1}}

// alternativeMembersCases are the request bodies of the inputs that take
// the real service's SDK's alternative members, with their validation.
var alternativeMembersCases = []struct {
	name   string
	bodies []string
	decode func(body string) string
}{
	{"coupon create", []string{
		`{"name":"a","discount_type":"percentage","discount_value":"10","duration":"once"}`,
		`{"name":"a","discount_type":"percentage","percent_off":10,"duration":"once"}`,
		`{"name":"a","discount_type":"percentage","percent_off":"12.5","duration":"once"}`,
		`{"name":"a","discount_type":"percentage","percent_off":10,"discount_value":"10.00","duration":"once"}`,
		`{"name":"a","discount_type":"percentage","percent_off":10,"discount_value":"20","duration":"once"}`,
		`{"name":"a","discount_type":"percentage","percent_off":150,"duration":"once"}`,
		`{"name":"a","discount_type":"fixed_amount","percent_off":10,"duration":"once"}`,
		`{"name":"a","discount_type":"fixed_amount","percent_off":10,"discount_value":"5","currency":"usd","duration":"once"}`,
		`{"name":"a","discount_type":"fixed_amount","discount_value":"5","currency":"eur","discount_value_currency":"usd","duration":"once"}`,
		`{"name":"a","discount_type":"fixed_amount","discount_value":"5","currency":"EUR","duration":"once"}`,
		`{"name":"a","discount_type":"percentage","discount_value":"5","currency":"EUR","duration":"once"}`,
		`{"name":"a","amount_off":500,"duration":"once"}`,
		`{"name":"a","percent_off":true}`,
		`{"name":"a","percent_off":null,"currency":null}`,
		`{"name":"a","currency":5}`,
		`{"name":"a","discount_value":[]}`,
		`{"name":"a","unknown_member":1,"percent_off":10,"discount_type":"percentage","duration":"once"}`,
		`{"name":`,
		`[]`,
		`{"name":"a"} {}`,
		`{}`,
		``,
	}, func(body string) string {
		return decodedAs(body, func(in *models.CreateCouponInput) error { _, err := in.Build(); return err })
	}},
	{"promotion code create", []string{
		`{"code":"SAVE","coupon_id":"c1","expires_at":"2030-01-02T03:04:05Z"}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":1893553445}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":1893553445.5}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":1e30}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":-99999999999999}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":true}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":{}}`,
		`{"code":"SAVE","coupon_id":"c1","expires_at":"tomorrow"}`,
		`{"code":"SAVE","coupon_id":"c1","max_redemptions":"x"}`,
		`{"code":"SAVE","coupon_id":"c1","max_redemptions":0,"max_customer_redemptions":0,"expires_at":1.5}`,
		`{"code":1}`,
		`{"code":"SAVE","coupon_id":"c1","metadata":{"k":"v"},"extra":[1,2]}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.PromotionCodeInput) error { _, f := in.Validate(true); return f.Err() })
	}},
	{"promotion code update", []string{
		`{"customer":null,"expires_at":null,"max_redemptions":null}`,
		`{"customer":"cu_1","expires_at":1893553445,"max_redemptions":3}`,
		`{"expires_at":null}`,
		`{"max_redemptions":null,"active":false}`,
		`{"customer":null}`,
		`{"expires_at":  null  }`,
		`{"coupon_id":"c2"}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.PromotionCodeInput) error { _, f := in.Validate(false); return f.Err() })
	}},
	{"product phase create", []string{
		`{"ordinal":0,"pricing_type":"static","amount_cents":500,"period_count":3,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount":500,"period_count":3,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","price":500,"period_count":3,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount":500,"price":600,"period_count":3,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount_cents":500,"amount":500,"price":500,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount_cents":500,"amount":400,"price":300,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount":-1,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount":99999999999999999,"currency":"USD"}`,
		`{"ordinal":0,"pricing_type":"static","amount_cents":500,"interval":"month","interval_count":1,"metadata":{"a":"b"}}`,
		`{"ordinal":0,"pricing_type":"static","amount_cents":500,"interval":null,"interval_count":null}`,
		`{"ordinal":0,"pricing_type":"static","amount":"x"}`,
		`{"ordinal":0,"pricing_type":"static","price":true}`,
		`{"ordinal":0,"metadata":"x"}`,
		`{"ordinal":"0"}`,
		`{}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.CreatePhaseInput) error { return in.Validate() })
	}},
	{"product phase update", []string{
		`{"period_count":null}`,
		`{"period_count":4,"name":"n"}`,
		`{"amount":700}`,
		`{"price":700,"amount_cents":700}`,
		`{"price":700,"amount_cents":800}`,
		`{"interval":"year","metadata":{"k":"v"}}`,
		`{"period_count":"x"}`,
		`{"amount":{}}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.UpdatePhaseInput) error {
			return fieldsErr(func(f *apierr.Fields) { in.Validate(f, "", "static") })
		})
	}},
	{"product phases bulk update", []string{
		`{"phases":[{"id":"ph_1","period_count":null},{"id":"ph_2","amount":5,"price":6}]}`,
		`{"phases":[{"id":"ph_1","amount":"x"}]}`,
		`{"phases":[{"id":"ph_1","period_count":[]}]}`,
		`{"phases":{}}`,
		`{}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.BulkUpdatePhasesInput) error {
			if err := in.Validate(); err != nil {
				return err
			}
			return fieldsErr(func(f *apierr.Fields) {
				for i, p := range in.Phases {
					p.Validate(f, fmt.Sprintf("phases.%d.", i), "static")
				}
			})
		})
	}},
	{"subscription phase create", []string{
		`{"ordinal":1,"pricing_type":"static","amount_cents":500,"period_count":2,"duration_type":"finite"}`,
		`{"ordinal":1,"pricing_type":"static","price":500,"duration_type":"infinite"}`,
		`{"ordinal":1,"pricing_type":"static","amount":500,"period_count":2,"duration_type":"infinite"}`,
		`{"ordinal":1,"pricing_type":"static","amount":500,"duration_type":"finite"}`,
		`{"ordinal":1,"pricing_type":"static","amount":500,"duration_type":"sometimes"}`,
		`{"ordinal":1,"pricing_type":"static","amount_cents":500,"interval":"month","interval_count":1,"currency":"usd"}`,
		`{"ordinal":1,"pricing_type":"static","amount_cents":500,"interval":"year","interval_count":2,"currency":"EUR","metadata":{"a":"b"}}`,
		`{"ordinal":1,"pricing_type":"static","amount_cents":500,"amount":1,"price":2}`,
		`{"ordinal":1,"duration_type":3}`,
		`{"ordinal":1,"amount":"x","duration_type":3}`,
		`{"ordinal":1,"interval_count":"x"}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.CreateSubscriptionPhaseInput) error {
			return fmt.Errorf("%s (sends subscription terms: %t)", problems(in.Validate(monthly)), in.SendsSubscriptionTerms())
		})
	}},
	{"subscription phase update", []string{
		`{"ordinal":2,"pricing_type":"relative","discount_percentage":"10"}`,
		`{"pricing_type":"static","amount":300,"duration_type":"infinite"}`,
		`{"period_count":null,"duration_type":"finite"}`,
		`{"period_count":3,"duration_type":"infinite"}`,
		`{"ordinal":-1,"pricing_type":"weird","price":5,"amount_cents":6}`,
		`{"interval":"week","interval_count":3,"metadata":{}}`,
		`{"ordinal":"x"}`,
		`{"pricing_type":7}`,
		`{"duration_type":[]}`,
		`{"period_count":null}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.UpdateSubscriptionPhaseInput) error {
			terms := &models.PhaseTerms{Ordinal: 1, PricingType: "static", PeriodCount: new(int)}
			err := fieldsErr(func(f *apierr.Fields) { in.Validate(f, "", terms, monthly) })
			in.ApplyTo(terms)
			applied, _ := json.Marshal(terms)
			return fmt.Errorf("%s (sends subscription terms: %t; applied: %s)", problems(err), in.SendsSubscriptionTerms(), applied)
		})
	}},
	{"subscription phases bulk update", []string{
		`{"phases":[{"id":"ph_1","period_count":null,"duration_type":"infinite"},{"id":"ph_2","price":6,"ordinal":3}]}`,
		`{"phases":[{"id":"ph_1","ordinal":"x"}]}`,
		`{"phases":[{"id":"ph_1","amount":"x"}]}`,
		`{"phases":[{"id":"ph_1","duration_type":false}]}`,
	}, func(body string) string {
		return decodedAs(body, func(in *models.BulkUpdateSubscriptionPhasesInput) error {
			if err := in.Validate(); err != nil {
				return err
			}
			return fieldsErr(func(f *apierr.Fields) {
				for i, p := range in.Phases {
					terms := &models.PhaseTerms{PricingType: "static"}
					p.Validate(f, fmt.Sprintf("phases.%d.", i), terms, monthly)
				}
			})
		})
	}},
}

// TestAlternativeMembersDecodeAsBefore: the SDK's alternative members, the
// members sent as null, and every way a body can be wrong decode and fail
// as they did when each request type decoded them by hand.
func TestAlternativeMembersDecodeAsBefore(t *testing.T) {
	t.Parallel()
	var got strings.Builder
	for _, c := range alternativeMembersCases {
		for _, body := range c.bodies {
			fmt.Fprintf(&got, "== %s: %s\n%s", c.name, body, c.decode(body))
		}
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		require.NoError(t, os.MkdirAll(filepath.Dir(alternativeMembersGolden), 0o755))
		require.NoError(t, os.WriteFile(alternativeMembersGolden, []byte(got.String()), 0o644))
	}
	want, err := os.ReadFile(alternativeMembersGolden)
	require.NoError(t, err)
	require.Equal(t, string(want), got.String())
}
