package models

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// reflectedAccount is what encoding/json renders for an account from its
// struct tags, with the fields its visibility hides shadowed away: the
// reference MarshalJSON must equal byte for byte. The fields each
// visibility hides are named here, apart from the model's tags, so that a
// tag lost or misspelt fails the test rather than shows a caller what it
// may not see.
func reflectedAccount(t *testing.T, a Account) []byte {
	t.Helper()
	type plain Account
	var v any = plain(a)
	switch a.visibility {
	case VisibleToHolder:
		v = struct {
			plain
			Metadata              *struct{} `json:"metadata,omitempty"`
			PayoutPaymentMethodID *struct{} `json:"payout_payment_method_id,omitempty"`
		}{plain: plain(a)}
	case VisiblePublic:
		v = struct {
			plain
			Metadata              *struct{} `json:"metadata,omitempty"`
			PayoutPaymentMethodID *struct{} `json:"payout_payment_method_id,omitempty"`
			Profile               *struct{} `json:"profile,omitempty"`
		}{plain: plain(a)}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// awkward strings: escapes, HTML characters, non-ASCII, invalid UTF-8,
// the separators JavaScript reads as line ends.
var awkward = []string{"", "plain", `quote " and \ back`, "<b>&amp;</b>", "1 < 2", "2 > 1", "tab\tnew\nline\x01",
	"Ada Lovelace–Byron", "日本", "bad \xff utf-8", "sep \u2028 \u2029", "\x7f"}

// An account renders, through the models' JSON library and for each
// visibility, exactly what encoding/json renders from its struct tags:
// 400 random accounts (every visibility, absent and empty members, strings
// with escapes, HTML characters, invalid UTF-8).
func TestAccountRendersAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	str := func() string { return awkward[rng.IntN(len(awkward))] }
	opt := func() *string {
		if rng.IntN(3) == 0 {
			return nil
		}
		s := str()
		return &s
	}
	id := func() uuid.UUID {
		var u uuid.UUID
		for i := range u {
			u[i] = byte(rng.IntN(256))
		}
		return u
	}
	when := func() time.Time {
		if rng.IntN(4) == 0 {
			return time.Time{}
		}
		return time.Unix(1_700_000_000+rng.Int64N(1e8), rng.Int64N(1e9)).In(time.FixedZone("x", 3600))
	}
	strs := func() []string {
		if rng.IntN(4) == 0 {
			return nil
		}
		out := []string{}
		for range rng.IntN(4) {
			out = append(out, str())
		}
		return out
	}
	address := func() *Address {
		if rng.IntN(3) == 0 {
			return nil
		}
		return &Address{opt(), opt(), opt(), opt(), opt(), opt()}
	}
	phone := func() *Phone {
		if rng.IntN(3) == 0 {
			return nil
		}
		// The stored E.164 is never rendered (TestStoredE164IsNotRendered).
		return &Phone{Number: opt(), CountryCode: opt()}
	}
	for n := range 400 {
		a := Account{ID: id(), Type: AccountType(str()), Status: AccountStatus(str()), ExternalID: opt(),
			Created: wire.Timestamp{Time: when()}, Updated: wire.Timestamp{Time: when()}}
		a.Livemode = rng.IntN(2) == 0
		if rng.IntN(2) == 0 {
			r := BlockedReason(str())
			a.BlockedReason = &r
		}
		if rng.IntN(4) > 0 {
			a.RestrictedBy = []Restrictor{}
			for range rng.IntN(3) {
				a.RestrictedBy = append(a.RestrictedBy, Restrictor(str()))
			}
		}
		if rng.IntN(4) > 0 {
			a.Metadata = Metadata{}
			for range rng.IntN(3) {
				a.Metadata[str()] = str()
			}
		}
		if rng.IntN(2) == 0 {
			u := id()
			a.PayoutPaymentMethodID = &u
		}
		if rng.IntN(2) == 0 {
			u := id()
			a.TestClockID = &u
		}
		if rng.IntN(3) > 0 {
			p := &IndividualProfile{Email: opt(), Phone: phone(), SSNLastFour: opt(), Birthdate: opt(), Address: address()}
			if rng.IntN(3) > 0 {
				p.Name = &PersonName{opt(), opt(), opt(), opt()}
			}
			a.Profile.Individual = p
		}
		if rng.IntN(3) == 0 {
			same := rng.IntN(2) == 0
			bp := &BusinessProfile{opt(), opt(), opt(), opt(), phone(), opt(), opt(), opt(), opt(), opt(), nil, address(), address()}
			if rng.IntN(2) == 0 {
				bp.SamePhysicalAndLegalAddress = &same
			}
			a.Profile.Business = bp
		}
		if rng.IntN(2) == 0 {
			a.TermsOfService = &TermsOfService{Token: opt(), Accepted: rng.IntN(2) == 0,
				AcceptedAt: wire.ISOTime{Time: when()}, IPAddress: opt(), UserAgent: opt()}
		}
		if rng.IntN(5) > 0 {
			a.Capabilities = []*Capability{}
			for range rng.IntN(4) {
				c := &Capability{ID: id(), AccountID: id(), Name: capability.Name(str()),
					Status: capability.Status(str()), DisabledReason: opt(), IneligibleReason: opt(),
					CurrentlyDue: strs(), Created: wire.ISOTime{Time: when()},
					Updated: wire.ISOTime{Time: when()}, Disabled: wire.ISOTime{Time: when()}}
				c.Livemode = rng.IntN(2) == 0
				if rng.IntN(4) > 0 {
					c.Errors = []capability.Error{}
					for range rng.IntN(3) {
						c.Errors = append(c.Errors, capability.Error{Code: str(), Requirement: str(), Reason: str()})
					}
				}
				if rng.IntN(10) == 0 {
					c = nil
				}
				a.Capabilities = append(a.Capabilities, c)
			}
		}
		if rng.IntN(5) > 0 {
			a.Steps = []capability.Step{}
			for range rng.IntN(5) {
				a.Steps = append(a.Steps, capability.Step{Key: capability.StepKey(str()), Status: capability.StepStatus(str()),
					Label: str(), Fields: strs(), CurrentlyDue: strs()})
			}
		}
		a.SetVisibility(Visibility(n % 3))

		want := reflectedAccount(t, a)
		got, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("account %d renders\n%s\nwhere encoding/json renders\n%s", n, got, want)
		}
		if a.visibility == VisiblePublic {
			// A visibility that is none of ours shows no more than the
			// least one.
			a.visibility = VisiblePublic + 1
			if got, err := json.Marshal(a); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("account %d with an unknown visibility renders\n%s (%v)\nnot\n%s", n, got, err, want)
			}
		}
	}
}
