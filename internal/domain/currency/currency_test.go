package currency

import "testing"

func TestSupported(t *testing.T) {
	for code, want := range map[string]bool{
		"USD": true, "usd": true, "Eur": true, "JPY": true, "XOF": true,
		"ABC": false, "XAU": false, "XTS": false, "XXX": false, "USN": false,
		"US": false, "USDD": false, "": false, "ÜSD": false,
	} {
		if got := Supported(code); got != want {
			t.Errorf("Supported(%q) = %v, want %v", code, got, want)
		}
	}
	if len(supported) < 150 {
		t.Fatalf("the list lost codes: %d", len(supported))
	}
}
