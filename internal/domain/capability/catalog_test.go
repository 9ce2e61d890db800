package capability

import (
	"encoding/json"
	"testing"
)

func TestAllNamesOrder(t *testing.T) {
	want := []Name{
		"kyc", "kyb", "phone_verification", "kyc_prefill", "idv", "age_verification",
		"address_verification", "card_verification", "bank_account_verification",
		"creator_shield", "geo_compliance", "card_send", "card_receive",
		"bank_account_send", "bank_account_receive",
	}
	equal(t, AllNames(), want)

	// The result is a copy: mutating it must not corrupt the catalogue.
	got := AllNames()
	got[0] = "tampered"
	equal(t, AllNames()[0], KYC)
}

func TestParseName(t *testing.T) {
	tests := []struct {
		in   string
		want Name
		ok   bool
	}{
		{"kyc", KYC, true},
		{"bank_account_receive", BankAccountReceive, true},
		{"geo_compliance", GeoCompliance, true},
		{"", "", false},
		{"KYC", "", false},
		{" kyc", "", false},
		{"kyc ", "", false},
		{"identity", "", false},
		{"unrequested", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseName(tt.in)
			equal(t, got, tt.want)
			equal(t, ok, tt.ok)
		})
	}
	for _, n := range AllNames() {
		got, ok := ParseName(string(n))
		if !ok || got != n {
			t.Errorf("ParseName(%q) = %q, %v", n, got, ok)
		}
		if !n.Valid() {
			t.Errorf("%q.Valid() = false", n)
		}
	}
	if Name("nope").Valid() {
		t.Error(`Name("nope").Valid() = true`)
	}
}

func TestProducts(t *testing.T) {
	equal(t, AllProducts(), []Product{"identity", "payments", "payouts", "geo_compliance", "creator_shield"})

	tests := []struct {
		in   string
		want Product
		ok   bool
	}{
		{"identity", ProductIdentity, true},
		{"payments", ProductPayments, true},
		{"payouts", ProductPayouts, true},
		{"geo_compliance", ProductGeoCompliance, true},
		{"creator_shield", ProductCreatorShield, true},
		{"Identity", "", false},
		{"", "", false},
		{"kyc", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseProduct(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseProduct(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRequiredProduct(t *testing.T) {
	want := map[Name]Product{
		KYC:                     ProductIdentity,
		KYB:                     ProductIdentity,
		IDV:                     ProductIdentity,
		PhoneVerification:       ProductIdentity,
		KYCPrefill:              ProductIdentity,
		AgeVerification:         ProductIdentity,
		AddressVerification:     ProductIdentity,
		CardVerification:        ProductPayments,
		BankAccountVerification: ProductPayments,
		CardSend:                ProductPayments,
		BankAccountSend:         ProductPayments,
		CardReceive:             ProductPayouts,
		BankAccountReceive:      ProductPayouts,
		GeoCompliance:           ProductGeoCompliance,
		CreatorShield:           ProductCreatorShield,
	}
	if len(want) != len(AllNames()) {
		t.Fatalf("table covers %d names, catalogue has %d", len(want), len(AllNames()))
	}
	for n, p := range want {
		equal(t, RequiredProduct(n), p)
	}
	equal(t, RequiredProduct("unknown"), Product(""))
}

func TestDirectDependencies(t *testing.T) {
	tests := []struct {
		name Name
		want []Name
	}{
		{KYCPrefill, names(KYC, PhoneVerification)},
		{AgeVerification, names(IDV)},
		{AddressVerification, names(KYC)},
		{CreatorShield, names(KYC)},
		{CardSend, names(CardVerification)},
		{BankAccountSend, names(BankAccountVerification)},
		{CardReceive, names(KYC, CardVerification)},
		{BankAccountReceive, names(KYC, BankAccountVerification)},
		{KYC, names()},
		{KYB, names()},
		{PhoneVerification, names()},
		{IDV, names()},
		{CardVerification, names()},
		{BankAccountVerification, names()},
		{GeoCompliance, names()},
		{"unknown", names()},
	}
	for _, tt := range tests {
		t.Run(string(tt.name), func(t *testing.T) {
			equal(t, DirectDependencies(tt.name), tt.want)
		})
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range []Status{StatusUnrequested, StatusPending, StatusActive, StatusDisabled} {
		got, ok := ParseStatus(string(s))
		if !ok || got != s {
			t.Errorf("ParseStatus(%q) = %q, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "Active", "enabled"} {
		if _, ok := ParseStatus(s); ok {
			t.Errorf("ParseStatus(%q) ok", s)
		}
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name      string
		requested []Name
		want      []Name
	}{
		{"nil", nil, names()},
		{"empty", []Name{}, names()},
		{"no dependencies", names(GeoCompliance), names(GeoCompliance)},
		{"kyc_prefill pulls kyc and phone", names(KYCPrefill), names(KYC, PhoneVerification, KYCPrefill)},
		{"age_verification pulls idv", names(AgeVerification), names(IDV, AgeVerification)},
		{"address_verification pulls kyc", names(AddressVerification), names(KYC, AddressVerification)},
		{"creator_shield pulls kyc", names(CreatorShield), names(KYC, CreatorShield)},
		{"card_send pulls card_verification", names(CardSend), names(CardVerification, CardSend)},
		{"bank_account_send", names(BankAccountSend), names(BankAccountVerification, BankAccountSend)},
		{"card_receive", names(CardReceive), names(KYC, CardVerification, CardReceive)},
		{"bank_account_receive", names(BankAccountReceive), names(KYC, BankAccountVerification, BankAccountReceive)},
		{"duplicates and overlap", names(CardReceive, CardSend, CardReceive, KYC),
			names(KYC, CardVerification, CardSend, CardReceive)},
		{"request order does not matter", names(BankAccountReceive, KYCPrefill),
			names(KYC, PhoneVerification, KYCPrefill, BankAccountVerification, BankAccountReceive)},
		{"unknown names dropped", names("bogus", IDV, ""), names(IDV)},
		{"everything", AllNames(), AllNames()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			equal(t, Expand(tt.requested), tt.want)
		})
	}
}

func TestExpandMarshalsAsArray(t *testing.T) {
	b, err := json.Marshal(Expand(nil))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, string(b), "[]")
}

// TestCatalogueConsistency guards the invariants other files rely on: every
// dependency is a catalogue member, the graph is acyclic, every capability
// has requirements and a known product.
func TestCatalogueConsistency(t *testing.T) {
	products := map[Product]bool{}
	for _, p := range AllProducts() {
		products[p] = true
	}
	for _, n := range AllNames() {
		if !products[RequiredProduct(n)] {
			t.Errorf("%s: product %q not in AllProducts", n, RequiredProduct(n))
		}
		if _, ok := requirements[n]; !ok {
			t.Errorf("%s: no requirements", n)
		}
		for _, d := range DirectDependencies(n) {
			if !d.Valid() {
				t.Errorf("%s: dependency %q not in catalogue", n, d)
			}
		}
		// Acyclic: n must not be reachable from its own dependencies.
		for _, m := range Expand(DirectDependencies(n)) {
			if m == n {
				t.Errorf("%s: dependency cycle", n)
			}
		}
	}
	if len(requirements) != len(AllNames()) {
		t.Errorf("requirements has %d entries, catalogue %d", len(requirements), len(AllNames()))
	}
}
