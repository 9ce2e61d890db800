package models

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// The jsonb columns of an account (profile, terms_of_service, verification,
// metadata) are read here rather than by Bun's JSON scanner, which hands
// each to encoding/json: a page of 100 accounts is 400 of those decodes,
// which were about a quarter of the CPU time of scanning the page and
// twice the allocations these readers make (docs/performance.md).
//
// Each column is read by a reader of exactly its type's shape, which takes
// only the JSON PostgreSQL writes for a value the server stored: the keys
// of the struct tags spelled exactly, each once, strings without escapes
// and in valid UTF-8. Anything else (an escaped string, a key of another
// spelling or an unknown one, a repeated member, a type that does not fit)
// makes the reader give up, and encoding/json decodes the column instead,
// so the result is always what encoding/json gives (account_jsonb_test.go
// holds the two side by side). A field added to these types must be added
// to their reader too; until it is, every column carrying it is decoded by
// encoding/json.
//
// A column is decoded into a new value, which then replaces the field:
// unlike encoding/json into the field, a scan never merges a column into
// what the field held before.

// Scan reads the profile column.
func (p *Profile) Scan(src any) error {
	r, err := columnReader(src)
	var v Profile
	if err == nil && !r.null() {
		r.profile(&v)
	}
	return finish(&r, err, src, p, v)
}

// Scan reads the terms_of_service column (Bun gives a NULL column a nil
// pointer without calling it).
func (t *TermsOfService) Scan(src any) error {
	r, err := columnReader(src)
	var v TermsOfService
	if err == nil && !r.null() {
		r.terms(&v)
	}
	return finish(&r, err, src, t, v)
}

// Scan reads the verification column.
func (v *Verification) Scan(src any) error {
	r, err := columnReader(src)
	var value Verification
	if err == nil && !r.null() {
		r.verification(&value)
	}
	return finish(&r, err, src, v, value)
}

// Scan reads a metadata column.
func (m *Metadata) Scan(src any) error {
	r, err := columnReader(src)
	var v Metadata
	if err == nil {
		v = r.metadata()
	}
	return finish(&r, err, src, m, v)
}

// columnReader reads the column src, a jsonb value's text; a NULL column
// reads as the text null, which each type reads as its zero value (as
// Bun's JSON scanner leaves a NULL column).
func columnReader(src any) (jsonbReader, error) {
	switch s := src.(type) {
	case nil:
		return jsonbReader{s: "null"}, nil
	case []byte:
		switch string(s) { // the commonest texts, which need no copy
		case "{}":
			return jsonbReader{s: "{}"}, nil
		case "null":
			return jsonbReader{s: "null"}, nil
		}
		return jsonbReader{s: string(s)}, nil // the driver may reuse s: the reader keeps a copy
	case string:
		return jsonbReader{s: s}, nil
	}
	return jsonbReader{}, fmt.Errorf("models: a jsonb column read from %T", src)
}

// finish stores v, what r read, in dst; when r gave up, what encoding/json
// decodes from the column into a new T instead.
func finish[T any](r *jsonbReader, err error, src any, dst *T, v T) error {
	if err != nil {
		return err
	}
	if r.ws(); r.bad || r.i != len(r.s) {
		raw, ok := src.([]byte)
		if !ok {
			raw = []byte(r.s)
		}
		var decoded T
		if err := json.Unmarshal(raw, &decoded); err != nil {
			return err
		}
		v = decoded
	}
	*dst = v
	return nil
}

// jsonbReader reads a jsonb column's text in place: strings are cut from
// it, so a column costs one copy of its text whatever its number of
// strings. Each method reads one value at i; on anything it does not
// take, it sets bad and every later read gives up too.
type jsonbReader struct {
	s   string
	i   int
	bad bool
}

func (r *jsonbReader) ws() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek is the next byte that is not white space, 0 at the end or once the
// reader has given up.
func (r *jsonbReader) peek() byte {
	if r.ws(); r.bad || r.i == len(r.s) {
		return 0
	}
	return r.s[r.i]
}

// null reads a null if one is next.
func (r *jsonbReader) null() bool {
	if r.peek() == 'n' && strings.HasPrefix(r.s[r.i:], "null") {
		r.i += 4
		return true
	}
	return false
}

// quoted reads a string without escapes, quotes included.
func (r *jsonbReader) quoted() string {
	if r.peek() != '"' {
		r.bad = true
		return ""
	}
	start, ascii := r.i, true
	for j := start + 1; j < len(r.s); j++ {
		c := r.s[j]
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			ascii = false
			continue
		}
		if c != '"' {
			continue
		}
		if ascii || utf8.ValidString(r.s[start+1:j]) { // else encoding/json replaces invalid bytes
			r.i = j + 1
			return r.s[start : j+1]
		}
		break
	}
	r.bad = true
	return ""
}

// str reads a string without escapes.
func (r *jsonbReader) str() string {
	if q := r.quoted(); len(q) >= 2 {
		return q[1 : len(q)-1]
	}
	return ""
}

// optString reads a string or null, as encoding/json fills a *string.
func (r *jsonbReader) optString() *string {
	if r.null() {
		return nil
	}
	s := r.str()
	if r.bad {
		return nil
	}
	return &s
}

// text reads a string into dst; null leaves dst as it is, as
// encoding/json does.
func (r *jsonbReader) text(dst *string) {
	if !r.null() {
		*dst = r.str()
	}
}

// boolean reads true or false into dst; null leaves dst as it is.
func (r *jsonbReader) boolean(dst *bool) {
	switch {
	case r.null():
	case r.peek() == 't' && strings.HasPrefix(r.s[r.i:], "true"):
		r.i += 4
		*dst = true
	case r.peek() == 'f' && strings.HasPrefix(r.s[r.i:], "false"):
		r.i += 5
		*dst = false
	default:
		r.bad = true
	}
}

// optBool reads true, false or null, as encoding/json fills a *bool.
func (r *jsonbReader) optBool() *bool {
	if r.null() {
		return nil
	}
	b := new(bool)
	r.boolean(b)
	return b
}

// isoTime reads a wire.ISOTime as its UnmarshalJSON does.
func (r *jsonbReader) isoTime(dst *wire.ISOTime) {
	if r.null() {
		*dst = wire.ISOTime{}
		return
	}
	t, err := time.Parse(time.RFC3339, r.str())
	if err != nil {
		r.bad = true
		return
	}
	dst.Time = t.UTC()
}

// instant reads a time.Time with its own UnmarshalJSON, given the value's
// text as encoding/json gives it.
func (r *jsonbReader) instant(dst *time.Time) {
	if r.null() {
		return
	}
	if q := r.quoted(); r.bad || dst.UnmarshalJSON([]byte(q)) != nil {
		r.bad = true
	}
}

// members reads an object, calling member with each key and the reader at
// the key's value. member gives up on a key it does not know.
func (r *jsonbReader) members(member func(key string)) {
	if r.peek() != '{' {
		r.bad = true
		return
	}
	r.i++
	if r.peek() == '}' {
		r.i++
		return
	}
	for !r.bad {
		key := r.str()
		if r.peek() != ':' {
			r.bad = true
			return
		}
		r.i++
		member(key)
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.bad = true
		}
	}
}

// opens reads a null, answering false, or the start of an object to read
// into a new value, answering true. set says the member already holds an
// object: a member read twice gives up, as encoding/json would merge the
// two objects.
func (r *jsonbReader) opens(set bool) bool {
	if r.null() {
		return false
	}
	if set || r.peek() != '{' {
		r.bad = true
		return false
	}
	return true
}

func (r *jsonbReader) profile(p *Profile) {
	r.members(func(key string) {
		switch key {
		case "individual":
			if r.opens(p.Individual != nil) {
				p.Individual = new(IndividualProfile)
				r.individual(p.Individual)
			} else {
				p.Individual = nil
			}
		case "business":
			if r.opens(p.Business != nil) {
				p.Business = new(BusinessProfile)
				r.business(p.Business)
			} else {
				p.Business = nil
			}
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) individual(p *IndividualProfile) {
	r.members(func(key string) {
		switch key {
		case "name":
			if r.opens(p.Name != nil) {
				p.Name = new(PersonName)
				r.personName(p.Name)
			} else {
				p.Name = nil
			}
		case "email":
			p.Email = r.optString()
		case "phone":
			if r.opens(p.Phone != nil) {
				p.Phone = new(Phone)
				r.phone(p.Phone)
			} else {
				p.Phone = nil
			}
		case "ssn_last_four":
			p.SSNLastFour = r.optString()
		case "birthdate":
			p.Birthdate = r.optString()
		case "address":
			if r.opens(p.Address != nil) {
				p.Address = new(Address)
				r.address(p.Address)
			} else {
				p.Address = nil
			}
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) business(p *BusinessProfile) {
	r.members(func(key string) {
		switch key {
		case "legal_business_name":
			p.LegalBusinessName = r.optString()
		case "doing_business_as":
			p.DoingBusinessAs = r.optString()
		case "business_type":
			p.BusinessType = r.optString()
		case "email":
			p.Email = r.optString()
		case "phone":
			if r.opens(p.Phone != nil) {
				p.Phone = new(Phone)
				r.phone(p.Phone)
			} else {
				p.Phone = nil
			}
		case "website":
			p.Website = r.optString()
		case "description":
			p.Description = r.optString()
		case "ein_last_four":
			p.EINLastFour = r.optString()
		case "mcc":
			p.MCC = r.optString()
		case "naics":
			p.NAICS = r.optString()
		case "same_physical_and_legal_address":
			p.SamePhysicalAndLegalAddress = r.optBool()
		case "address":
			if r.opens(p.Address != nil) {
				p.Address = new(Address)
				r.address(p.Address)
			} else {
				p.Address = nil
			}
		case "physical_address":
			if r.opens(p.PhysicalAddress != nil) {
				p.PhysicalAddress = new(Address)
				r.address(p.PhysicalAddress)
			} else {
				p.PhysicalAddress = nil
			}
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) personName(n *PersonName) {
	r.members(func(key string) {
		switch key {
		case "first_name":
			n.FirstName = r.optString()
		case "middle_name":
			n.MiddleName = r.optString()
		case "last_name":
			n.LastName = r.optString()
		case "suffix":
			n.Suffix = r.optString()
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) phone(p *Phone) {
	r.members(func(key string) {
		switch key {
		case "number":
			p.Number = r.optString()
		case "country_code":
			p.CountryCode = r.optString()
		case "e164":
			p.Normalized = r.optString()
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) address(a *Address) {
	r.members(func(key string) {
		switch key {
		case "line_1":
			a.Line1 = r.optString()
		case "line_2":
			a.Line2 = r.optString()
		case "city":
			a.City = r.optString()
		case "state":
			a.State = r.optString()
		case "postal_code":
			a.PostalCode = r.optString()
		case "country":
			a.Country = r.optString()
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) terms(t *TermsOfService) {
	r.members(func(key string) {
		switch key {
		case "token":
			t.Token = r.optString()
		case "accepted":
			r.boolean(&t.Accepted)
		case "accepted_at":
			r.isoTime(&t.AcceptedAt)
		case "ip_address":
			t.IPAddress = r.optString()
		case "user_agent":
			t.UserAgent = r.optString()
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) verification(v *Verification) {
	r.members(func(key string) {
		switch key {
		case "verified_phones":
			v.VerifiedPhones = r.stringList()
		case "identity_run":
			if r.opens(v.IdentityRun != nil) {
				v.IdentityRun = new(capability.RunOutcome)
				r.runOutcome(v.IdentityRun)
			} else {
				v.IdentityRun = nil
			}
		case "document_verified":
			r.boolean(&v.DocumentVerified)
		case "owners_confirmed":
			if r.opens(v.OwnersConfirmed != nil) {
				v.OwnersConfirmed = new(Attestation)
				r.attestation(v.OwnersConfirmed)
			} else {
				v.OwnersConfirmed = nil
			}
		case "prefill_confirmed":
			if r.opens(v.PrefillConfirmed != nil) {
				v.PrefillConfirmed = new(Attestation)
				r.attestation(v.PrefillConfirmed)
			} else {
				v.PrefillConfirmed = nil
			}
		case "bank_account_linked":
			r.boolean(&v.BankAccountLinked)
		case "active_card":
			r.boolean(&v.ActiveCard)
		case "geo_status":
			r.text(&v.GeoStatus)
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) runOutcome(o *capability.RunOutcome) {
	r.members(func(key string) {
		switch key {
		case "Status":
			r.text(&o.Status)
		case "FailureType":
			r.text(&o.FailureType)
		case "Category":
			r.text(&o.Category)
		case "CreatorShieldFindings":
			r.boolean(&o.CreatorShieldFindings)
		default:
			r.bad = true
		}
	})
}

func (r *jsonbReader) attestation(a *Attestation) {
	r.members(func(key string) {
		switch key {
		case "at":
			r.instant(&a.At)
		case "ip_address":
			r.text(&a.IPAddress)
		case "user_agent":
			r.text(&a.UserAgent)
		default:
			r.bad = true
		}
	})
}

// stringList reads null or an array of strings.
func (r *jsonbReader) stringList() []string {
	if r.null() {
		return nil
	}
	if r.peek() != '[' {
		r.bad = true
		return nil
	}
	r.i++
	list := []string{}
	if r.peek() == ']' {
		r.i++
		return list
	}
	for !r.bad {
		list = append(list, r.str())
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return list
		default:
			r.bad = true
		}
	}
	return nil
}

// metadata reads null or an object of strings.
func (r *jsonbReader) metadata() Metadata {
	if r.null() {
		return nil
	}
	m := Metadata{}
	r.members(func(key string) { m[key] = r.str() })
	return m
}
