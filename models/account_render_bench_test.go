package models

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// seededPage is a page of n accounts as `make loadbench` seeds them: an
// individual with a name and an e-mail, three capabilities with their
// requirements, and the onboarding steps they make.
func seededPage(n int) []Account {
	out := make([]Account, n)
	t0 := time.Date(2026, 11, 26, 10, 58, 0, 123456000, time.UTC)
	for i := range out {
		first, last, email := "Ada", "Lovelace", fmt.Sprintf("seed%d@example.com", i)
		a := Account{ID: uuid.Must(uuid.NewV7()), Type: AccountTypeIndividual, Status: AccountStatusPending,
			Profile:  Profile{Individual: &IndividualProfile{Name: &PersonName{FirstName: &first, LastName: &last}, Email: &email}},
			Metadata: Metadata{}, RestrictedBy: []Restrictor{},
			Created: wire.At(t0), Updated: wire.At(t0)}
		f := capability.Facts{AccountType: "individual", Present: a.Profile.PresentFields()}
		statuses := map[capability.Name]capability.Status{}
		for _, name := range []capability.Name{"kyc", "phone_verification", "card_verification"} {
			ev := capability.Evaluate(name, capability.StatusPending, f)
			c := &Capability{ID: uuid.Must(uuid.NewV7()), AccountID: a.ID, Name: name, Status: capability.StatusPending,
				CurrentlyDue: ev.CurrentlyDue, Errors: ev.Errors, Created: wire.ISOTime{Time: t0}, Updated: wire.ISOTime{Time: t0}}
			a.Capabilities = append(a.Capabilities, c)
			statuses[name] = c.Status
		}
		a.Steps = capability.Steps(statuses, f)
		out[i] = a
	}
	return out
}

// BenchmarkAccountPageJSON renders a page of 100 seeded accounts into one
// buffer: by the generated code (what REST does), and by the libraries
// measured against it from the same struct tags (docs/performance.md,
// "The account's JSON"). Every way renders the same bytes
// (TestAccountRendersAsEncodingJSON; goccy/go-json's output for these
// accounts is checked here).
func BenchmarkAccountPageJSON(b *testing.B) {
	page := seededPage(100)
	type plain Account // the struct tags alone, without Account's MarshalJSON
	for i := range page {
		want, _ := json.Marshal(plain(page[i]))
		got, _ := gojson.Marshal(plain(page[i]))
		if generated, _ := page[i].AppendJSON(nil); string(generated) != string(want) || string(got) != string(want) {
			b.Fatalf("the renderings of account %d differ", i)
		}
	}
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for range b.N {
			buf = buf[:0]
			for i := range page {
				buf, _ = page[i].AppendJSON(buf)
			}
		}
	})
	for _, lib := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{{"encoding_json", json.Marshal}, {"goccy_go_json", gojson.Marshal}} {
		b.Run(lib.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for range b.N {
				buf = buf[:0]
				for i := range page {
					out, _ := lib.marshal(plain(page[i]))
					buf = append(buf, out...)
				}
			}
		})
	}
}
