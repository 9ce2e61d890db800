package httpx

import "testing"

func TestMaskCardNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"/v1/payment_methods/4242424242424242":                      "/v1/payment_methods/****4242",
		"No such payment_method: '4000056655665556'":                "No such payment_method: '****5556'",
		"card 4242 4242 4242 4242 declined":                         "card ****4242 declined",
		"4242-4242-4242-4242":                                       "****4242",
		"a 13-digit 4222222222222 and 19 6011000990139424000":       "a 13-digit ****2222 and 19 ****4000",
		"id 019bc186-de0e-7daf-80eb-4ef04478db80":                   "id 019bc186-de0e-7daf-80eb-4ef04478db80",
		"all digits 01234567-8901-2345-6789-012345678901":           "all digits 01234567-8901-2345-6789-012345678901",
		"amex 3782 822463 10005":                                    "amex ****0005",
		"glued x4242424242424242":                                   "glued x****4242",
		"0190c1d2-0000-7000-8000-000000000000":                      "0190c1d2-0000-7000-8000-000000000000",
		"12 digits 123456789012 stay":                               "12 digits 123456789012 stay",
		"id with digit groups 019bc6ae-1234-7567-8901-1929b313a534": "id with digit groups 019bc6ae-1234-7567-8901-1929b313a534",
		"1 2": "1 2",
		"ends with a separator 4242424242424242-": "ends with a separator ****4242-",
		"": "",
	} {
		if got := MaskCardNumbers(in); got != want {
			t.Errorf("MaskCardNumbers(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactMasksCardsAndCredentials(t *testing.T) {
	got := Redact("/v1/x/sk_sandbox_abcdefABCDEF0123456789/4242424242424242")
	if want := "/v1/x/sk_sandbox_" + Redacted + "/****4242"; got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"whsec_0123456789abcdef0123456789abcdef":     "whsec_" + Redacted,
		"whsec_cli_0123456789abcdef0123456789abcdef": "whsec_cli_" + Redacted,
		"token lst_AbC123xyz":                        "token lst_" + Redacted,
		// An intent id whose middle groups are all digits stays whole, so
		// the secret after it is still recognised and redacted.
		"'ci_019bc6ae-1234-7567-8901-1929b313a534_secret_UGOw'": "'ci_019bc6ae-1234-7567-8901-1929b313a534_secret_" + Redacted + "'",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkMaskCardNumbersPlainPath(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = MaskCardNumbers("/v1/accounts/019bc186-de0e-7daf-80eb-4ef04478db80/capabilities")
	}
}
