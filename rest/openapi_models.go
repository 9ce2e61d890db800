package rest

import (
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/frame-oss/payments-server/models"
)

// modelSchemas are the schemas of the models that render as a JSON value
// their Go kind does not say (wireSchema).
var modelSchemas = map[reflect.Type]func() *jsonschema.Schema{
	// UsageNumber is a decimal string in Go, a JSON number on the wire.
	reflect.TypeFor[models.UsageNumber](): func() *jsonschema.Schema { return &jsonschema.Schema{Type: "number"} },
	// SDKOnboardingSteps is an object of the session's steps, each with its
	// status ({"id_verification": {"status": "pending"}}).
	reflect.TypeFor[models.SDKOnboardingSteps](): func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "object", Description: "each step of the session, by key",
			AdditionalProperties: &jsonschema.Schema{Type: "object", Required: []string{"status"}}}
	},
	// CentsAsDollars is a number of dollars with two places.
	reflect.TypeFor[models.CentsAsDollars](): func() *jsonschema.Schema { return &jsonschema.Schema{Type: "number"} },
	// UnixOrZero is a time in Unix seconds, 0 for none.
	reflect.TypeFor[models.UnixOrZero](): func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Description: "Unix seconds, 0 for none"}
	},
}

// modelAmendments adjust the reflected schemas of the models whose
// MarshalJSON renders other members than their fields declare: each entry
// says what that MarshalJSON does, beside the reflected fields.
var modelAmendments = map[reflect.Type]func(s *jsonschema.Schema){
	// Account.MarshalJSON leaves out what the caller may not see.
	reflect.TypeFor[models.Account](): optional("metadata", "payout_payment_method_id", "profile"),
	// ChargeIntent.MarshalJSON leaves out what a publishable key may not see.
	reflect.TypeFor[models.ChargeIntent](): optional("customer", "account", "metadata", "revenue_split", "order"),
	// A deleted customer renders as the subset the spec keeps retrievable.
	reflect.TypeFor[models.Customer](): orSubset(map[string]*jsonschema.Schema{"deleted": {Const: true}},
		"id", "object", "livemode", "created", "updated"),
	// A redacted payment method renders as its seven members; a full one
	// carries the SDK's customer beside customer_id.
	reflect.TypeFor[models.PaymentMethod](): both(alias("customer", "customer_id"),
		orSubset(nil, "id", "object", "type", "status", "livemode", "created", "updated")),
	// /v1/billing/metering answers a meter or a usage record, rendered alone.
	reflect.TypeFor[models.Metering](): oneOfMembers("meter", "usage_record"),
}

// optional makes members that may be left out no longer required.
func optional(names ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return slices.Contains(names, n) })
	}
}

// alias adds the required member name rendered with the value of member of.
func alias(name, of string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p, _ := s.Properties.Get(of)
		member(name, p)(s)
	}
}

// member adds the required member name.
func member(name string, p *jsonschema.Schema) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Properties.Set(name, p)
		s.Required = append(s.Required, name)
	}
}

// both applies each amendment.
func both(amend ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, a := range amend {
			a(s)
		}
	}
}

// oneOfMembers makes the object, instead, exactly one of the named
// members' objects: a MarshalJSON rendering the one member set alone.
func oneOfMembers(names ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		alts := make([]*jsonschema.Schema, 0, len(names))
		for _, n := range names {
			p, _ := s.Properties.Get(n)
			alts = append(alts, p)
		}
		*s = jsonschema.Schema{Description: s.Description, OneOf: alts}
	}
}

// orSubset lets the object be, instead, only the named members of its
// own (all required) and extra.
func orSubset(extra map[string]*jsonschema.Schema, names ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		full := *s
		subset := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(),
			AdditionalProperties: jsonschema.FalseSchema}
		for _, n := range names {
			p, _ := s.Properties.Get(n)
			subset.Properties.Set(n, p)
			subset.Required = append(subset.Required, n)
		}
		for n, p := range extra {
			subset.Properties.Set(n, p)
			subset.Required = append(subset.Required, n)
		}
		slices.Sort(subset.Required)
		*s = jsonschema.Schema{Description: full.Description, AnyOf: []*jsonschema.Schema{&full, subset}}
		full.Description = ""
	}
}
