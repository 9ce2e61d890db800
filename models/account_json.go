package models

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// An account renders field by field here rather than through encoding/json's
// reflection: a page of 100 accounts renders 100 accounts, 300 capabilities
// and some 400 onboarding steps, and reflection over them, with the
// marshalers of their ids and timestamps whose output encoding/json
// compacts once more, was a third of the CPU of listing them. The output
// is byte for byte what encoding/json gives for the struct tags of Account
// and its members (account_json_test.go holds the two side by side), so a
// field added to those types must be added here too; the test fails until
// it is.

// AppendJSON appends the account as its caller may see it (MarshalJSON)
// to dst.
func (a *Account) AppendJSON(dst []byte) []byte {
	b := append(dst, `{"livemode":`...)
	b = strconv.AppendBool(b, a.Livemode)
	b = append(b, `,"id":`...)
	b = appendUUID(b, a.ID)
	b = append(b, `,"object":"account","type":`...)
	b = appendString(b, string(a.Type))
	b = append(b, `,"status":`...)
	b = appendString(b, string(a.Status))
	b = append(b, `,"blocked_reason":`...)
	if a.BlockedReason == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, string(*a.BlockedReason))
	}
	b = append(b, `,"restricted_by":`...)
	b = appendStrings(b, a.RestrictedBy)
	b = append(b, `,"external_id":`...)
	b = appendOptString(b, a.ExternalID)
	if a.visibility != VisibleToHolder && a.visibility != VisiblePublic {
		b = append(b, `,"metadata":`...)
		b = appendMetadata(b, a.Metadata)
		b = append(b, `,"payout_payment_method_id":`...)
		if a.PayoutPaymentMethodID == nil {
			b = append(b, "null"...)
		} else {
			b = appendUUID(b, *a.PayoutPaymentMethodID)
		}
	}
	if a.visibility != VisiblePublic {
		b = append(b, `,"profile":`...)
		b = a.Profile.appendJSON(b)
	}
	b = append(b, `,"capabilities":`...)
	if a.Capabilities == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range a.Capabilities {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"terms_of_service":`...)
	b = a.TermsOfService.appendJSON(b)
	b = append(b, `,"steps":`...)
	if a.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range a.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStep(b, &a.Steps[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"created":`...)
	b = appendTimestamp(b, a.Created)
	b = append(b, `,"updated":`...)
	b = appendTimestamp(b, a.Updated)
	b = append(b, `,"test_clock":`...)
	if a.TestClockID == nil {
		b = append(b, "null"...)
	} else {
		b = appendUUID(b, *a.TestClockID)
	}
	return append(b, '}')
}

// appendJSON appends a capability as encoding/json renders it; nil is null.
func (c *Capability) appendJSON(b []byte) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"livemode":`...)
	b = strconv.AppendBool(b, c.Livemode)
	b = append(b, `,"id":`...)
	b = appendUUID(b, c.ID)
	b = append(b, `,"object":"capability","account_id":`...)
	b = appendUUID(b, c.AccountID)
	b = append(b, `,"name":`...)
	b = appendString(b, string(c.Name))
	b = append(b, `,"status":`...)
	b = appendString(b, string(c.Status))
	b = append(b, `,"disabled_reason":`...)
	b = appendOptString(b, c.DisabledReason)
	b = append(b, `,"ineligible_reason":`...)
	b = appendOptString(b, c.IneligibleReason)
	b = append(b, `,"currently_due":`...)
	b = appendStrings(b, c.CurrentlyDue)
	b = append(b, `,"errors":`...)
	if c.Errors == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range c.Errors {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"code":`...)
			b = appendString(b, e.Code)
			b = append(b, `,"requirement":`...)
			b = appendString(b, e.Requirement)
			b = append(b, `,"reason":`...)
			b = appendString(b, e.Reason)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"created":`...)
	b = appendISOTime(b, c.Created)
	b = append(b, `,"updated":`...)
	b = appendISOTime(b, c.Updated)
	b = append(b, `,"disabled":`...)
	b = appendISOTime(b, c.Disabled)
	return append(b, '}')
}

func appendStep(b []byte, s *capability.Step) []byte {
	b = append(b, `{"key":`...)
	b = appendString(b, s.Key)
	b = append(b, `,"status":`...)
	b = appendString(b, string(s.Status))
	b = append(b, `,"label":`...)
	b = appendString(b, s.Label)
	b = append(b, `,"fields":`...)
	b = appendStrings(b, s.Fields)
	b = append(b, `,"currently_due":`...)
	b = appendStrings(b, s.CurrentlyDue)
	return append(b, '}')
}

// appendJSON appends the terms; nil is null.
func (t *TermsOfService) appendJSON(b []byte) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"token":`...)
	b = appendOptString(b, t.Token)
	b = append(b, `,"accepted":`...)
	b = strconv.AppendBool(b, t.Accepted)
	b = append(b, `,"accepted_at":`...)
	b = appendISOTime(b, t.AcceptedAt)
	if t.IPAddress != nil {
		b = append(b, `,"ip_address":`...)
		b = appendString(b, *t.IPAddress)
	}
	if t.UserAgent != nil {
		b = append(b, `,"user_agent":`...)
		b = appendString(b, *t.UserAgent)
	}
	return append(b, '}')
}

func (p *Profile) appendJSON(b []byte) []byte {
	b = append(b, '{')
	comma := false
	if i := p.Individual; i != nil {
		b = append(b, `"individual":{"name":`...)
		b = i.Name.appendJSON(b)
		b = append(b, `,"email":`...)
		b = appendOptString(b, i.Email)
		b = append(b, `,"phone":`...)
		b = i.Phone.appendJSON(b)
		b = append(b, `,"ssn_last_four":`...)
		b = appendOptString(b, i.SSNLastFour)
		b = append(b, `,"birthdate":`...)
		b = appendOptString(b, i.Birthdate)
		b = append(b, `,"address":`...)
		b = i.Address.appendJSON(b)
		b = append(b, '}')
		comma = true
	}
	if bp := p.Business; bp != nil {
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"business":{"legal_business_name":`...)
		b = appendOptString(b, bp.LegalBusinessName)
		b = append(b, `,"doing_business_as":`...)
		b = appendOptString(b, bp.DoingBusinessAs)
		b = append(b, `,"business_type":`...)
		b = appendOptString(b, bp.BusinessType)
		b = append(b, `,"email":`...)
		b = appendOptString(b, bp.Email)
		b = append(b, `,"phone":`...)
		b = bp.Phone.appendJSON(b)
		b = append(b, `,"website":`...)
		b = appendOptString(b, bp.Website)
		b = append(b, `,"description":`...)
		b = appendOptString(b, bp.Description)
		b = append(b, `,"ein_last_four":`...)
		b = appendOptString(b, bp.EINLastFour)
		b = append(b, `,"mcc":`...)
		b = appendOptString(b, bp.MCC)
		b = append(b, `,"naics":`...)
		b = appendOptString(b, bp.NAICS)
		b = append(b, `,"same_physical_and_legal_address":`...)
		if bp.SamePhysicalAndLegalAddress == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendBool(b, *bp.SamePhysicalAndLegalAddress)
		}
		b = append(b, `,"address":`...)
		b = bp.Address.appendJSON(b)
		b = append(b, `,"physical_address":`...)
		b = bp.PhysicalAddress.appendJSON(b)
		b = append(b, '}')
	}
	return append(b, '}')
}

func (n *PersonName) appendJSON(b []byte) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"first_name":`...)
	b = appendOptString(b, n.FirstName)
	b = append(b, `,"middle_name":`...)
	b = appendOptString(b, n.MiddleName)
	b = append(b, `,"last_name":`...)
	b = appendOptString(b, n.LastName)
	b = append(b, `,"suffix":`...)
	b = appendOptString(b, n.Suffix)
	return append(b, '}')
}

func (p *Phone) appendJSON(b []byte) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"number":`...)
	b = appendOptString(b, p.Number)
	b = append(b, `,"country_code":`...)
	b = appendOptString(b, p.CountryCode)
	return append(b, '}')
}

func (a *Address) appendJSON(b []byte) []byte {
	if a == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"line_1":`...)
	b = appendOptString(b, a.Line1)
	b = append(b, `,"line_2":`...)
	b = appendOptString(b, a.Line2)
	b = append(b, `,"city":`...)
	b = appendOptString(b, a.City)
	b = append(b, `,"state":`...)
	b = appendOptString(b, a.State)
	b = append(b, `,"postal_code":`...)
	b = appendOptString(b, a.PostalCode)
	b = append(b, `,"country":`...)
	b = appendOptString(b, a.Country)
	return append(b, '}')
}

// appendMetadata renders metadata as encoding/json does (keys sorted); it
// is rare and small, so encoding/json renders a non-empty one.
func appendMetadata(b []byte, m Metadata) []byte {
	switch {
	case m == nil:
		return append(b, "null"...)
	case len(m) == 0:
		return append(b, "{}"...)
	}
	raw, err := json.Marshal(map[string]string(m))
	if err != nil { // a map of strings always renders
		panic(err)
	}
	return append(b, raw...)
}

// appendUUID renders id as its MarshalText does, quoted.
func appendUUID(b []byte, id uuid.UUID) []byte {
	var text [36]byte
	hex.Encode(text[0:8], id[0:4])
	text[8] = '-'
	hex.Encode(text[9:13], id[4:6])
	text[13] = '-'
	hex.Encode(text[14:18], id[6:8])
	text[18] = '-'
	hex.Encode(text[19:23], id[8:10])
	text[23] = '-'
	hex.Encode(text[24:36], id[10:16])
	b = append(b, '"')
	b = append(b, text[:]...)
	return append(b, '"')
}

// appendTimestamp renders integer Unix seconds, or null (wire.Timestamp).
func appendTimestamp(b []byte, t wire.Timestamp) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, t.Unix(), 10)
}

// appendISOTime renders an RFC 3339 string in UTC, or null (wire.ISOTime).
func appendISOTime(b []byte, t wire.ISOTime) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// appendStrings renders a list of strings; nil is null, as encoding/json
// renders a nil slice.
func appendStrings[S ~string](b []byte, list []S) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, string(s))
	}
	return append(b, ']')
}

// appendString renders s as encoding/json.Marshal does. A string of plain
// printable ASCII (ids, enum values, most names) is its own content; any
// other is left to encoding/json, which escapes HTML characters, U+2028
// and U+2029, and replaces invalid UTF-8.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s)
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
