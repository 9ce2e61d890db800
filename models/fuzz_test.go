package models

import (
	"encoding/json"
	"testing"
	"time"
)

var fuzzNow = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// Whatever JSON arrives, validation never panics, and input it accepts can
// always be applied and rendered.
func FuzzCreateAccountInput(f *testing.F) {
	for _, seed := range []string{
		`{"type":"individual","profile":{"individual":{"name":{"first_name":"A","last_name":"B"},"ssn":"123-45-6789","dob":"1990-01-01","phone":{"number":"(200) 100-1695","country_code":"+1"},"address":{"line1":"1 Main","country":"us"}}}}`,
		`{"type":"business","profile":{"business":{"legal_business_name":"X","ein":"12-3456789","website":"example.com","mcc":"5734","naics":"5112"}},"metadata":{"a":"b"}}`,
		`{"type":"individual","profile":{"individual":{"ssn":"12345","ssn_last_four":"12"}}}`,
		`{"terms_of_service":{"accepted_at":"2026-01-01T00:00:00Z","ip_address":"::1"}}`,
		`{}`, `[]`, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var in CreateAccountInput
		if json.Unmarshal(raw, &in) != nil {
			return
		}
		if in.Validate(fuzzNow) != nil {
			return
		}
		var p Profile
		in.Profile.ApplyTo(&p)
		_ = p.PresentFields()
		a := Account{Profile: p, Metadata: MergeMetadata(nil, in.Metadata)}
		if in.TermsOfService != nil {
			a.TermsOfService = in.TermsOfService.Accept(fuzzNow)
		}
		if _, err := json.Marshal(a); err != nil {
			t.Fatalf("accepted input does not render: %v", err)
		}
	})
}

// Updates are validated against the stored type and merge without panics.
func FuzzUpdateAccountInput(f *testing.F) {
	f.Add([]byte(`{"profile":{"individual":{"address":{"line_2":"Apt 1"}}},"metadata":{"a":null,"b":""}}`), true)
	f.Add([]byte(`{"profile":{"business":{"physical_address":{"city":"X"}}},"external_id":""}`), false)
	f.Fuzz(func(t *testing.T, raw []byte, individual bool) {
		var in UpdateAccountInput
		if json.Unmarshal(raw, &in) != nil {
			return
		}
		typ := AccountTypeBusiness
		if individual {
			typ = AccountTypeIndividual
		}
		if in.Validate(typ, fuzzNow).Err() != nil {
			return
		}
		p := Profile{}
		in.Profile.ApplyTo(&p)
		_ = MergeMetadata(Metadata{"x": "y"}, in.Metadata)
	})
}

func FuzzNormalizePhone(f *testing.F) {
	f.Add("2001001695", "1")
	f.Add("+44 20 7946 0958", "")
	f.Add("(415) 555-2671", "US")
	f.Add("0", "999")
	f.Fuzz(func(t *testing.T, number, cc string) {
		e, ok := NormalizePhone(number, cc)
		if ok && (len(e) < 3 || e[0] != '+') {
			t.Fatalf("NormalizePhone(%q, %q) = %q: not E.164", number, cc, e)
		}
	})
}
