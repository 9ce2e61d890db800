package testenv

import (
	"maps"
	"slices"
	"strings"
)

// A spec is rendered per transport so that one fixture drives both: REST
// takes snake_case members and lower-case enum values ("individual",
// "card_send"), GraphQL's CreateAccountInput takes camelCase members and
// SCREAMING_CASE enum values ("INDIVIDUAL", "CARD_SEND"). Unset (zero)
// fields are left out rather than sent as null or "", which the server
// would judge as input.

// RESTBody renders s as a POST /v1/accounts body. The result is a fresh map
// the caller may change (to send something the spec cannot say).
func (s AccountSpec) RESTBody() map[string]any { return s.render(rest) }

// GraphQLInput renders s as the CreateAccountInput variable of the
// createAccount mutation. The result is a fresh map, as for RESTBody.
func (s AccountSpec) GraphQLInput() map[string]any { return s.render(graphQL) }

// transport is the API a spec is rendered for.
type transport int

const (
	rest transport = iota
	graphQL
)

// name picks the member name for the transport.
func (t transport) name(rest, graphQLName string) string {
	if t == graphQL {
		return graphQLName
	}
	return rest
}

// enum spells an enum value, given as REST spells it.
func (t transport) enum(v string) string {
	if t == graphQL {
		return strings.ToUpper(v)
	}
	return v
}

func (s AccountSpec) render(t transport) map[string]any {
	profile := map[string]any{}
	if s.Individual != nil {
		profile["individual"] = s.Individual.render(t)
	}
	if s.Business != nil {
		profile["business"] = s.Business.render(t)
	}
	out := map[string]any{"type": t.enum(s.Type), "profile": profile}
	if s.Capabilities != nil {
		caps := make([]string, len(s.Capabilities))
		for i, c := range s.Capabilities {
			caps[i] = t.enum(c)
		}
		out["capabilities"] = caps
	}
	if s.ExternalID != "" {
		out[t.name("external_id", "externalId")] = s.ExternalID
	}
	if s.Metadata != nil {
		out["metadata"] = maps.Clone(s.Metadata)
	}
	if tos := s.TermsOfService; tos != nil {
		out[t.name("terms_of_service", "termsOfService")] = fields{
			"token":                             tos.Token,
			t.name("ip_address", "ipAddress"):   tos.IPAddress,
			t.name("user_agent", "userAgent"):   tos.UserAgent,
			t.name("accepted_at", "acceptedAt"): tos.AcceptedAt,
		}.set()
	}
	return out
}

func (p *IndividualSpec) render(t transport) map[string]any {
	return fields{
		"name":      p.Name.render(t),
		"email":     p.Email,
		"phone":     p.Phone.render(t),
		"ssn":       p.SSN,
		"birthdate": p.Birthdate,
		"address":   p.Address.render(t),
	}.set()
}

func (p *BusinessSpec) render(t transport) map[string]any {
	out := fields{
		t.name("legal_business_name", "legalBusinessName"): p.LegalBusinessName,
		t.name("doing_business_as", "doingBusinessAs"):     p.DoingBusinessAs,
		t.name("business_type", "businessType"):            p.BusinessType,
		"email":                                            p.Email,
		"phone":                                            p.Phone.render(t),
		"website":                                          p.Website,
		"description":                                      p.Description,
		"ein":                                              p.EIN,
		"mcc":                                              p.MCC,
		"naics":                                            p.NAICS,
		"address":                                          p.Address.render(t),
		t.name("physical_address", "physicalAddress"): p.PhysicalAddress.render(t),
	}.set()
	if p.SamePhysicalAndLegalAddress != nil {
		out[t.name("same_physical_and_legal_address", "samePhysicalAndLegalAddress")] = *p.SamePhysicalAndLegalAddress
	}
	return out
}

func (n PersonName) render(t transport) map[string]any {
	return fields{
		t.name("first_name", "firstName"):   n.First,
		t.name("middle_name", "middleName"): n.Middle,
		t.name("last_name", "lastName"):     n.Last,
		"suffix":                            n.Suffix,
	}.set()
}

// render is nil for a nil phone, which fields.set leaves out.
func (p *PhoneSpec) render(t transport) map[string]any {
	if p == nil {
		return nil
	}
	return fields{"number": p.Number, t.name("country_code", "countryCode"): p.CountryCode}.set()
}

// render is nil for a nil address, which fields.set leaves out. REST is
// sent line_1, its canonical spelling (line1 is only an input alias).
func (a *AddressSpec) render(t transport) map[string]any {
	if a == nil {
		return nil
	}
	return fields{
		t.name("line_1", "line1"):           a.Line1,
		t.name("line_2", "line2"):           a.Line2,
		"city":                              a.City,
		"state":                             a.State,
		t.name("postal_code", "postalCode"): a.PostalCode,
		"country":                           a.Country,
	}.set()
}

// fields are the candidate members of an object: strings, whole numbers,
// booleans, string lists, objects or metadata.
type fields map[string]any

// set returns the members that are set: non-empty strings, non-zero
// numbers, true booleans, and non-nil lists, objects and metadata (empty
// metadata is sent). A member whose zero value must be sent (amount 0,
// active false) is added by the caller after set.
func (f fields) set() map[string]any {
	out := make(map[string]any, len(f))
	for k, v := range f {
		switch v := v.(type) {
		case string:
			if v != "" {
				out[k] = v
			}
		case int:
			if v != 0 {
				out[k] = v
			}
		case int64:
			if v != 0 {
				out[k] = v
			}
		case bool:
			if v {
				out[k] = v
			}
		case []string:
			if v != nil {
				out[k] = slices.Clone(v)
			}
		case map[string]any:
			if v != nil {
				out[k] = v
			}
		case map[string]string:
			if v != nil {
				out[k] = maps.Clone(v)
			}
		default:
			panic("testenv: fields holds a " + k + " of a kind it cannot render")
		}
	}
	return out
}
