package models

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// PhaseableSubscription always renders as "Subscription": the phases of
// this table belong to subscriptions.
type PhaseableSubscription struct{}

// MarshalJSON writes "Subscription".
func (PhaseableSubscription) MarshalJSON() ([]byte, error) { return []byte(`"Subscription"`), nil }

// UnmarshalJSON accepts anything: the value is implied.
func (*PhaseableSubscription) UnmarshalJSON([]byte) error { return nil }

// SubscriptionPhase is a billing phase of one subscription (spec doc 2
// §2.4): the product phase's shape with phaseable_type "Subscription" and
// started_at, set when the phase first prices a period.
type SubscriptionPhase struct {
	bun.BaseModel `bun:"table:subscription_phases,alias:ph"`
	Tenant

	ID     uuid.UUID         `bun:"id,pk,type:uuid" json:"id"`
	Object Object[phaseKind] `bun:"-" json:"object"`
	PhaseTerms
	PhaseableType  PhaseableSubscription `bun:"-" json:"phaseable_type"`
	SubscriptionID uuid.UUID             `bun:"subscription_id,type:uuid" json:"phaseable_id" sdk:"subscription_id"`
	StartedAt      wire.Timestamp        `bun:"started_at,type:timestamptz" json:"started_at"`
	Currency       string                `bun:"currency" json:"currency"`
	Created        wire.Timestamp        `bun:"created,type:timestamptz" json:"created"`
	Updated        wire.Timestamp        `bun:"updated,type:timestamptz" json:"updated"`
}

// PhaseID is the phase's id (either parent's phases).
func (p *SubscriptionPhase) PhaseID() uuid.UUID { return p.ID }

// UpdatedAt is where the phase's last change is kept.
func (p *SubscriptionPhase) UpdatedAt() *wire.Timestamp { return &p.Updated }

// Started tells whether the phase has priced a period: its ordinal and
// pricing are then history and stay as they are.
func (p *SubscriptionPhase) Started() bool { return !p.StartedAt.IsZero() }

// CreateSubscriptionPhaseInput is the body of POST
// /v1/subscriptions/{id}/phases: a product phase's members and the SDK's
// duration_type. currency, interval and interval_count are checked against
// the subscription (Validate).
type CreateSubscriptionPhaseInput struct {
	CreatePhaseInput
	DurationType *DurationType `json:"duration_type"`
}

// Validate checks a create request for a phase of the subscription p:
// currency, interval and interval_count, when sent, must be p's.
func (in *CreateSubscriptionPhaseInput) Validate(p SubscriptionPhaseParent) error {
	var f apierr.Fields
	in.validateTerms(&f)
	in.sdk.checkAmount(&f, "", in.AmountCents)
	in.sdk.refuseMetadata(&f, "")
	if checkCurrency(&f, "currency", in.Currency) && in.Currency != nil && !strings.EqualFold(*in.Currency, p.Currency) {
		f.Add("currency", "must be the subscription's currency ("+p.Currency+")")
	}
	in.sdk.checkInterval(&f, "", p.Recurring)
	checkDuration(&f, "", in.DurationType, in.PeriodCount != nil, in.PeriodCount != nil)
	return f.Err()
}

// SendsSubscriptionTerms reports whether the create sends a member
// checked against its subscription (currency, interval, interval_count).
// Without one, Validate answers the same for every subscription, so it can
// run before the subscription is read.
func (in *CreateSubscriptionPhaseInput) SendsSubscriptionTerms() bool {
	return in.Currency != nil || sent(in.sdk.Interval) || sent(in.sdk.IntervalCount)
}

// UpdateSubscriptionPhaseInput changes a subscription's phase: a product
// phase's members, and the SDK's ordinal, pricing_type and duration_type.
type UpdateSubscriptionPhaseInput struct {
	UpdatePhaseInput
	Ordinal      *int          `json:"ordinal"`
	PricingType  *PricingType  `json:"pricing_type"`
	DurationType *DurationType `json:"duration_type"`
}

// Validate checks an update of the phase with terms t of the subscription
// p; prefix is the path of the phase in the request ("" or "phases.2.").
// A change of pricing_type needs the new pricing's amount_cents or
// discount_percentage.
func (in *UpdateSubscriptionPhaseInput) Validate(f *apierr.Fields, prefix string, t *PhaseTerms, p SubscriptionPhaseParent) {
	if in.Ordinal != nil && *in.Ordinal < 0 {
		f.Add(prefix+"ordinal", "must be at least 0")
	}
	pricing, switching := t.PricingType, false
	if in.PricingType != nil {
		if !checkOneOf(f, prefix+"pricing_type", (*string)(in.PricingType), "static", "relative") {
			pricing = ""
		} else {
			pricing, switching = *in.PricingType, *in.PricingType != t.PricingType
		}
	}
	checkPricing(f, prefix, pricing, in.AmountCents, in.DiscountPercentage, switching)
	checkPeriodCount(f, prefix+"period_count", in.PeriodCount)
	checkText(f, prefix+"name", in.Name, 100, false)
	in.sdk.checkAmount(f, prefix, in.AmountCents)
	in.sdk.refuseMetadata(f, prefix)
	in.sdk.checkInterval(f, prefix, p.Recurring)
	// A finite phase needs a period count: sent now, or kept from before
	// when the update leaves it alone.
	finite := in.PeriodCount != nil || (t.PeriodCount != nil && !in.indefinite())
	checkDuration(f, prefix, in.DurationType, in.PeriodCount != nil, finite)
}

// SendsSubscriptionTerms reports whether the update sends a member
// checked against its subscription (interval, interval_count). Without
// one, Validate answers the same for every subscription.
func (in *UpdateSubscriptionPhaseInput) SendsSubscriptionTerms() bool {
	return sent(in.sdk.Interval) || sent(in.sdk.IntervalCount)
}

// indefinite tells whether the update makes the phase indefinite
// (period_count null, GraphQL's indefinite).
func (in *UpdateSubscriptionPhaseInput) indefinite() bool {
	return in.Indefinite != nil && *in.Indefinite
}

// ApplyTo sets the members in carries on t. A new pricing type drops the
// old pricing's member; duration_type infinite drops period_count.
func (in *UpdateSubscriptionPhaseInput) ApplyTo(t *PhaseTerms) {
	if in.Ordinal != nil {
		t.Ordinal = *in.Ordinal
	}
	if in.PricingType != nil && *in.PricingType != t.PricingType {
		t.PricingType, t.Amount, t.DiscountPercentage = *in.PricingType, nil, nil
	}
	in.UpdatePhaseInput.ApplyTo(t)
	if in.DurationType != nil && *in.DurationType == DurationInfinite {
		t.PeriodCount = nil
	}
}

// BulkUpdateSubscriptionPhasesInput is the body of PATCH
// /v1/subscriptions/{id}/phases/bulk_update.
type BulkUpdateSubscriptionPhasesInput struct {
	Phases []*UpdateSubscriptionPhaseInput `json:"phases"`
}

// Validate checks the request's size; each entry is checked against the
// phase it names, before the subscription is locked where no stored phase
// could change its problems (resolvers/catalog/phase_check.go).
func (in *BulkUpdateSubscriptionPhasesInput) Validate() error {
	return checkBulkPhases(in.Phases)
}

// SubscriptionPhaseParent is what a subscription's phases are checked
// against: its currency and its product's billing period.
type SubscriptionPhaseParent struct {
	Currency  string
	Recurring *Recurring
}

// checkDuration reports a duration_type that contradicts the period count:
// counted tells whether the request sends a period_count, finite whether
// the phase will have one.
func checkDuration(f *apierr.Fields, prefix string, d *DurationType, counted, finite bool) {
	if d == nil || !checkOneOf(f, prefix+"duration_type", (*string)(d), "finite", "infinite") {
		return
	}
	switch {
	case *d == DurationFinite && !finite:
		f.Add(prefix+"duration_type", "is finite but the phase has no period_count (send period_count, or duration_type infinite)")
	case *d == DurationInfinite && counted:
		f.Add(prefix+"duration_type", "is infinite but period_count is sent (an infinite phase has no period_count)")
	}
}

// checkInterval reports an interval or interval_count other than the
// subscription's billing period r: a phase counts periods of its
// subscription and cannot have one of its own.
func (m sdkPhaseMembers) checkInterval(f *apierr.Fields, prefix string, r *Recurring) {
	var wantInterval string
	wantCount := 0
	if r != nil {
		wantInterval, wantCount = string(r.Interval), r.IntervalCount
	}
	if sent(m.Interval) {
		var s string
		if json.Unmarshal(m.Interval, &s) != nil || s != wantInterval {
			f.Add(prefix+"interval", "is not supported: a phase lasts periods of its subscription ("+wantInterval+"), and can only repeat it")
		}
	}
	if sent(m.IntervalCount) {
		var n int
		if json.Unmarshal(m.IntervalCount, &n) != nil || n != wantCount {
			f.Add(prefix+"interval_count", "is not supported: a phase lasts periods of its subscription, and can only repeat their interval_count")
		}
	}
}

// sent tells whether a raw member was sent with a value (null is not).
func sent(raw json.RawMessage) bool {
	return raw != nil && !bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}
