package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// jsonbColumns are the account's jsonb columns with their scanners, each
// reading into a new value of its type.
var jsonbColumns = []struct {
	name string
	scan func(src any) (any, error)
}{
	{"profile", scanInto[Profile]},
	{"terms_of_service", scanInto[TermsOfService]},
	{"verification", scanInto[Verification]},
	{"metadata", scanInto[Metadata]},
}

func scanInto[T any, P interface {
	*T
	Scan(any) error
}](src any) (any, error) {
	var v T
	err := P(&v).Scan(src)
	return v, err
}

// decodeAs is what encoding/json gives for doc in a new value of like's type.
func decodeAs(like any, doc []byte) (any, error) {
	p := reflect.New(reflect.TypeOf(like))
	err := json.Unmarshal(doc, p.Interface())
	return p.Elem().Interface(), err
}

// requireAsEncodingJSON checks that the column's scanner gives for doc,
// as bytes and as a string, what encoding/json gives: the same value, or
// an error both ways.
func requireAsEncodingJSON(t *testing.T, column string, scan func(any) (any, error), doc []byte) {
	t.Helper()
	for _, src := range []any{doc, string(doc)} {
		got, err := scan(src)
		want, wantErr := decodeAs(got, doc)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%s %q: scan error %v, encoding/json error %v", column, doc, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %q: scans as\n%#v\nwhere encoding/json gives\n%#v", column, doc, got, want)
		}
	}
}

// postgresText writes v (from encoding/json's generic decoding) as
// PostgreSQL writes a jsonb value: keys ordered by length, then bytes;
// ", " and ": " between members; strings escaped only where JSON requires
// it, everything else, non-ASCII and HTML characters included, as is.
func postgresText(b []byte, v any) []byte {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y string) int {
			if len(x) != len(y) {
				return len(x) - len(y)
			}
			return bytes.Compare([]byte(x), []byte(y))
		})
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = postgresString(b, k)
			b = append(b, ": "...)
			b = postgresText(b, v[k])
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = postgresText(b, e)
		}
		return append(b, ']')
	case string:
		return postgresString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case nil:
		return append(b, "null"...)
	}
	panic(fmt.Sprintf("postgresText: %T", v))
}

func postgresString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20:
			b = fmt.Appendf(b, `\u%04x`, c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// jsonbValues makes random values of the four column types, with every
// member present, absent or null and the awkward strings of
// account_json_test.go.
type jsonbValues struct{ rng *rand.Rand }

func (g jsonbValues) str() string { return awkward[g.rng.IntN(len(awkward))] }

func (g jsonbValues) opt() *string {
	if g.rng.IntN(3) == 0 {
		return nil
	}
	s := g.str()
	return &s
}

func (g jsonbValues) when() time.Time {
	if g.rng.IntN(5) == 0 {
		return time.Time{}
	}
	zone := time.UTC
	if g.rng.IntN(2) == 0 {
		zone = time.FixedZone("", -5*3600)
	}
	return time.Unix(1_700_000_000+g.rng.Int64N(1e8), g.rng.Int64N(1e9)).In(zone)
}

func (g jsonbValues) address() *Address {
	if g.rng.IntN(3) == 0 {
		return nil
	}
	return &Address{g.opt(), g.opt(), g.opt(), g.opt(), g.opt(), g.opt()}
}

func (g jsonbValues) phone() *Phone {
	if g.rng.IntN(3) == 0 {
		return nil
	}
	return &Phone{g.opt(), g.opt(), g.opt()}
}

func (g jsonbValues) profile() Profile {
	var p Profile
	if g.rng.IntN(3) > 0 {
		p.Individual = &IndividualProfile{Email: g.opt(), Phone: g.phone(), SSNLastFour: g.opt(),
			Birthdate: g.opt(), Address: g.address()}
		if g.rng.IntN(3) > 0 {
			p.Individual.Name = &PersonName{g.opt(), g.opt(), g.opt(), g.opt()}
		}
	}
	if g.rng.IntN(3) == 0 {
		p.Business = &BusinessProfile{g.opt(), g.opt(), g.opt(), g.opt(), g.phone(), g.opt(), g.opt(),
			g.opt(), g.opt(), g.opt(), nil, g.address(), g.address()}
		if g.rng.IntN(2) == 0 {
			same := g.rng.IntN(2) == 0
			p.Business.SamePhysicalAndLegalAddress = &same
		}
	}
	return p
}

func (g jsonbValues) terms() *TermsOfService {
	if g.rng.IntN(4) == 0 {
		return nil
	}
	return &TermsOfService{Token: g.opt(), Accepted: g.rng.IntN(2) == 0,
		AcceptedAt: wire.ISOTime{Time: g.when().Truncate(time.Second)}, IPAddress: g.opt(), UserAgent: g.opt()}
}

func (g jsonbValues) attestation() *Attestation {
	if g.rng.IntN(2) == 0 {
		return nil
	}
	return &Attestation{At: g.when(), IPAddress: g.str(), UserAgent: g.str()}
}

func (g jsonbValues) verification() Verification {
	v := Verification{DocumentVerified: g.rng.IntN(2) == 0, BankAccountLinked: g.rng.IntN(2) == 0,
		ActiveCard: g.rng.IntN(2) == 0, GeoStatus: g.str(),
		OwnersConfirmed: g.attestation(), PrefillConfirmed: g.attestation()}
	for range g.rng.IntN(3) {
		v.VerifiedPhones = append(v.VerifiedPhones, g.str())
	}
	if g.rng.IntN(2) == 0 {
		v.IdentityRun = &capability.RunOutcome{Status: g.str(), FailureType: g.str(), Category: g.str(),
			CreatorShieldFindings: g.rng.IntN(2) == 0}
	}
	return v
}

func (g jsonbValues) metadata() Metadata {
	if g.rng.IntN(5) == 0 {
		return nil
	}
	m := Metadata{}
	for range g.rng.IntN(4) {
		m[g.str()] = g.str()
	}
	return m
}

// mutate changes one byte of doc, drops one or inserts one, from the
// characters that change JSON's meaning most.
func mutate(rng *rand.Rand, doc []byte) []byte {
	const alphabet = `{}[]":, nul0tfe\Ax` + "\xff"
	out := slices.Clone(doc)
	i := rng.IntN(len(out))
	c := alphabet[rng.IntN(len(alphabet))]
	switch rng.IntN(3) {
	case 0:
		out[i] = c
	case 1:
		out = slices.Delete(out, i, i+1)
	default:
		out = slices.Insert(out, i, c)
	}
	return out
}

// The column scanners give what encoding/json gives for the same text:
// for random values as encoding/json stores them and as PostgreSQL gives
// them back, for every member absent, null or present, and for text
// changed at random (an error both ways, or the same value).
func TestJSONBColumnsReadAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := jsonbValues{rng}
	for range 500 {
		values := []any{g.profile(), g.terms(), g.verification(), g.metadata()}
		for i, col := range jsonbColumns {
			stored, err := json.Marshal(values[i])
			if err != nil {
				t.Fatal(err)
			}
			var generic any
			if err := json.Unmarshal(stored, &generic); err != nil {
				t.Fatal(err)
			}
			read := postgresText(nil, generic)
			var indented bytes.Buffer
			if err := json.Indent(&indented, stored, " ", "\t"); err != nil {
				t.Fatal(err)
			}
			for _, doc := range [][]byte{stored, read, indented.Bytes()} {
				requireAsEncodingJSON(t, col.name, col.scan, doc)
			}
			for range 8 {
				requireAsEncodingJSON(t, col.name, col.scan, mutate(rng, read))
			}
		}
	}
}

// Text that encoding/json reads differently from a plain reading (a key
// of another case, a repeated object, an unknown key, escapes, null where
// a value is kept) is still read as encoding/json reads it.
func TestJSONBColumnsEdgeCases(t *testing.T) {
	for _, c := range []struct{ column, doc string }{
		{"profile", `{"Individual": {"EMAIL": "a@b.c"}}`},
		{"profile", `{"individual": {"name": {"first_name": "A"}, "name": {"last_name": "B"}}}`},
		{"profile", `{"individual": {"name": {"first_name": "A"}, "name": null}}`},
		{"profile", `{"individual": null, "individual": {"email": "x"}}`},
		{"profile", `{"individual": {"email": "a\u00e9\"b"}, "other": 1}`},
		{"profile", `{"business": {"same_physical_and_legal_address": null, "mcc": null}}`},
		{"profile", `{"business": {"same_physical_and_legal_address": 1}}`},
		{"profile", `null`}, {"profile", `{}`}, {"profile", ` {} `}, {"profile", `[]`}, {"profile", `{} x`},
		{"terms_of_service", `{"accepted": true, "accepted": null, "accepted_at": null}`},
		{"terms_of_service", `{"accepted_at": "2026-01-02T03:04:05+01:00", "token": "t"}`},
		{"terms_of_service", `{"accepted_at": "2026-01-02T03:04:05.123Z"}`},
		{"terms_of_service", `{"accepted_at": "2026-01-02"}`},
		{"terms_of_service", `null`},
		{"verification", `{"geo_status": "x", "geo_status": null, "verified_phones": []}`},
		{"verification", `{"verified_phones": ["+1", null]}`},
		{"verification", `{"owners_confirmed": {"at": "2026-01-02T03:04:05.123456789-05:00", "ip_address": null}}`},
		{"verification", `{"owners_confirmed": {"at": "2026-01-02 03:04:05"}}`},
		{"verification", `{"identity_run": {"Status": "approved", "CreatorShieldFindings": true}}`},
		{"verification", `{"identity_run": {"status": "approved"}}`},
		{"metadata", `{"a": "1", "a": "2", "b": ""}`},
		{"metadata", `{"a": null}`}, {"metadata", `{"a": 1}`}, {"metadata", `null`}, {"metadata", `{}`},
		{"metadata", `{"\u00e9": "x"}`}, {"metadata", "{\"bad\xff\": \"x\"}"},
	} {
		for _, col := range jsonbColumns {
			if col.name == c.column {
				requireAsEncodingJSON(t, col.name, col.scan, []byte(c.doc))
			}
		}
	}
}

// A NULL column is the type's zero value, as Bun's JSON scanner left it;
// a column of another type is an error.
func TestJSONBColumnsNullAndOtherTypes(t *testing.T) {
	for _, col := range jsonbColumns {
		v, err := col.scan(nil)
		if err != nil || !reflect.ValueOf(v).IsZero() {
			t.Fatalf("%s: NULL scans as %#v, %v", col.name, v, err)
		}
		if _, err := col.scan(42); err == nil {
			t.Fatalf("%s: an integer column scans", col.name)
		}
	}
	m := Metadata{"kept": "no"}
	if err := m.Scan([]byte(`{"a": "b"}`)); err != nil || !reflect.DeepEqual(m, Metadata{"a": "b"}) {
		t.Fatalf("metadata scanned over a map: %v, %v", m, err)
	}
}

// What the server stores, as PostgreSQL gives it back, is read without
// encoding/json: the fallback is for text the server does not write.
func TestJSONBColumnsReadStoredTextThemselves(t *testing.T) {
	ada, email, us := "Ada Lovelace–Byron", "ada@example.com", "US"
	tos := &TermsOfService{Accepted: true, AcceptedAt: wire.ISOTime{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, IPAddress: &us}
	v := Verification{VerifiedPhones: []string{"+12001001695"}, DocumentVerified: true,
		IdentityRun:     &capability.RunOutcome{Status: "approved"},
		OwnersConfirmed: &Attestation{At: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), IPAddress: "::1", UserAgent: "<ua>"}}
	for _, c := range []struct {
		value any
		read  func(*jsonbReader)
	}{
		{Profile{Individual: &IndividualProfile{Name: &PersonName{FirstName: &ada}, Email: &email, Address: &Address{Country: &us}}},
			func(r *jsonbReader) { r.profile(new(Profile)) }},
		{tos, func(r *jsonbReader) { r.terms(new(TermsOfService)) }},
		{v, func(r *jsonbReader) { r.verification(new(Verification)) }},
		{Metadata{"plan": "gold", "<b>": "日本"}, func(r *jsonbReader) { _ = r.metadata() }},
	} {
		stored, err := json.Marshal(c.value)
		if err != nil {
			t.Fatal(err)
		}
		var generic any
		if err := json.Unmarshal(stored, &generic); err != nil {
			t.Fatal(err)
		}
		r := jsonbReader{s: string(postgresText(nil, generic))}
		c.read(&r)
		if r.ws(); r.bad || r.i != len(r.s) {
			t.Fatalf("%s: read by encoding/json", r.s)
		}
	}
}

// BenchmarkAccountJSONBColumns reads the four columns of an account as
// `make loadbench` seeds it (a profile with a name and an e-mail, no
// terms, empty verification and metadata, as PostgreSQL gives them back),
// by the columns' scanners and by encoding/json as Bun's JSON scanner did.
func BenchmarkAccountJSONBColumns(b *testing.B) {
	columns := [][]byte{
		[]byte(`{"individual": {"name": {"suffix": null, "last_name": "Lovelace", "first_name": "Ada", "middle_name": null}, "email": "seed1@example.com", "phone": null, "address": null, "birthdate": null, "ssn_last_four": null}}`),
		[]byte(`null`), []byte(`{}`), []byte(`{}`),
	}
	b.Run("scanners", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var a Account
			tos := new(TermsOfService)
			for i, dst := range []interface{ Scan(any) error }{&a.Profile, tos, &a.Verification, &a.Metadata} {
				if err := dst.Scan(columns[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var a Account
			tos := new(TermsOfService)
			for i, dst := range []any{&a.Profile, tos, &a.Verification, &a.Metadata} {
				if err := json.Unmarshal(columns[i], dst); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
