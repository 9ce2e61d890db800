package models

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type phaseKind struct{}

// Product phases have the shape of subscription phases (spec doc 2 §2.1),
// object name included; phaseable_type tells them apart.
func (phaseKind) objectName() string { return "subscription_phase" }

// PhaseableProduct always renders as "Product": the phases of this table
// belong to products.
type PhaseableProduct struct{}

// MarshalJSON writes "Product".
func (PhaseableProduct) MarshalJSON() ([]byte, error) { return []byte(`"Product"`), nil }

// UnmarshalJSON accepts anything: the value is implied.
func (*PhaseableProduct) UnmarshalJSON([]byte) error { return nil }

// ProductPhase is a billing phase template of a product (spec doc 2 §2.4).
type ProductPhase struct {
	bun.BaseModel `bun:"table:product_phases,alias:ph"`
	Tenant

	ID     uuid.UUID         `bun:"id,pk,type:uuid" json:"id"`
	Object Object[phaseKind] `bun:"-" json:"object"`
	PhaseTerms
	PhaseableType PhaseableProduct `bun:"-" json:"phaseable_type"`
	ProductID     uuid.UUID        `bun:"product_id,type:uuid" json:"phaseable_id" sdk:"product_id"`
	StartedAt     wire.Timestamp   `bun:"-" json:"started_at"`
	Currency      string           `bun:"currency" json:"currency"`
	Metadata      Metadata         `bun:"metadata,type:jsonb" json:"metadata"`
	// Interval and IntervalCount are the product's billing period, the
	// period a phase's period_count counts (the SDKs read them on a
	// phase). They are read from the product in the phase's statement
	// (ProductPhaseIntervalColumns), and left out for a product that is
	// not recurring.
	Interval      *RecurringInterval `bun:"interval,scanonly" json:"interval,omitempty"`
	IntervalCount *int               `bun:"interval_count,scanonly" json:"interval_count,omitempty"`
	Created       wire.Timestamp     `bun:"created,type:timestamptz" json:"created"`
	Updated       wire.Timestamp     `bun:"updated,type:timestamptz" json:"updated"`
	// Deleted is true on the answer of the phase's delete, which answers
	// the phase removed (the SDKs read a phase, and deleted, from it).
	Deleted bool `bun:"-" json:"deleted,omitempty"`
}

// PhaseTerms are the members of a phase that its parent's ordering rules
// and an update act on, the same for a product's and a subscription's
// phases (embedded where they render, so the members keep their order).
type PhaseTerms struct {
	Ordinal            int         `bun:"ordinal" json:"ordinal"`
	Name               *string     `bun:"name,type:text" json:"name"`
	PricingType        PricingType `bun:"pricing_type" json:"pricing_type"`
	Amount             *int64      `bun:"amount,type:bigint" json:"amount" sdk:"price"`
	DiscountPercentage *Decimal    `bun:"discount_percentage,type:numeric" json:"discount_percentage"`
	PeriodCount        *int        `bun:"period_count,type:integer" json:"period_count"`
}

// Terms returns the terms themselves, for code that handles a phase of
// either parent.
func (t *PhaseTerms) Terms() *PhaseTerms { return t }

// ProductPhaseIntervalColumns read a product phase's Interval and
// IntervalCount from its product's recurring, as SetInterval sets them.
const ProductPhaseIntervalColumns = `(SELECT pr.recurring->>'interval' FROM products AS pr
	WHERE pr.merchant_id = ?TableAlias.merchant_id AND pr.id = ?TableAlias.product_id) AS interval,
	(SELECT CASE WHEN pr.recurring->>'interval' IS NULL THEN NULL
		ELSE greatest(coalesce((pr.recurring->>'interval_count')::int, 1), 1) END FROM products AS pr
	WHERE pr.merchant_id = ?TableAlias.merchant_id AND pr.id = ?TableAlias.product_id) AS interval_count`

// SetInterval sets the phase's interval from its product's recurring r
// (nil: not recurring), as ProductPhaseIntervalColumns reads it.
func (p *ProductPhase) SetInterval(r *Recurring) {
	p.Interval, p.IntervalCount = nil, nil
	if r != nil && r.Interval != "" {
		iv, n := r.Interval, max(r.IntervalCount, 1)
		p.Interval, p.IntervalCount = &iv, &n
	}
}

// PhaseID is the phase's id (either parent's phases).
func (p *ProductPhase) PhaseID() uuid.UUID { return p.ID }

// UpdatedAt is where the phase's last change is kept.
func (p *ProductPhase) UpdatedAt() *wire.Timestamp { return &p.Updated }

// Started is always false: a product's phase is a template, it prices
// no period itself.
func (p *ProductPhase) Started() bool { return false }

// CreatePhaseInput is the body of POST /v1/products/{id}/phases.
type CreatePhaseInput struct {
	Ordinal            *int         `json:"ordinal"`
	PricingType        *PricingType `json:"pricing_type"`
	AmountCents        *int64       `json:"amount_cents" range:"amount"`
	DiscountPercentage *Decimal     `json:"discount_percentage"`
	PeriodCount        *int         `json:"period_count"`
	Name               *string      `json:"name"`
	Currency           *string      `json:"currency"`

	sdk sdkPhaseMembers `wire:"alternatives"` // the real service's SDK's members (sdk_phase_requests.go)
}

// UpdatePhaseInput changes a phase; members omitted stay. A period_count
// sent as null makes the phase indefinite (Indefinite; GraphQL's
// `indefinite: true`).
type UpdatePhaseInput struct {
	ID                 *string  `json:"id"`
	Name               *string  `json:"name"`
	PeriodCount        *int     `json:"period_count"`
	Indefinite         *bool    `json:"-" null:"period_count"`
	DiscountPercentage *Decimal `json:"discount_percentage"`
	AmountCents        *int64   `json:"amount_cents" range:"amount"`

	sdk sdkPhaseMembers `wire:"alternatives"` // the real service's SDK's members (sdk_phase_requests.go)
}

// BulkUpdatePhasesInput is the body of PATCH .../phases/bulk_update.
type BulkUpdatePhasesInput struct {
	Phases []*UpdatePhaseInput `json:"phases"`
}

// Validate checks the request's size, as a subscription's bulk update
// does; each entry is checked against the phase it names
// (resolvers/catalog/phase_check.go).
func (in *BulkUpdatePhasesInput) Validate() error {
	return checkBulkPhases(in.Phases)
}

// MaxBulkPhases bounds the entries of one bulk update of a product's or a
// subscription's phases: far more than a schedule holds, few enough that
// a refused request lists every problem in a readable answer, and that
// the entries' checks before the lock cost little.
const MaxBulkPhases = 100

// checkBulkPhases refuses a bulk update of phases without its list or
// with more than MaxBulkPhases entries.
func checkBulkPhases[E any](phases []E) error {
	switch {
	case phases == nil:
		return apierr.FieldError("phases", "is required")
	case len(phases) > MaxBulkPhases:
		return apierr.FieldError("phases", fmt.Sprintf("lists too many phases: at most %d per request", MaxBulkPhases))
	}
	return nil
}

// Validate checks a create request.
func (in *CreatePhaseInput) Validate() error {
	var f apierr.Fields
	in.validateTerms(&f)
	in.sdk.check(&f, "", in.AmountCents)
	checkCurrency(&f, "currency", in.Currency)
	return f.Err()
}

// validateTerms checks the spec's members of a create request.
func (in *CreatePhaseInput) validateTerms(f *apierr.Fields) {
	if in.Ordinal == nil {
		f.Add("ordinal", "is required")
	} else if *in.Ordinal < 0 {
		f.Add("ordinal", "must be at least 0")
	}
	if in.PricingType == nil {
		f.Add("pricing_type", "is required")
	} else if checkOneOf(f, "pricing_type", (*string)(in.PricingType), "static", "relative") {
		checkPricing(f, "", *in.PricingType, in.AmountCents, in.DiscountPercentage, true)
	}
	checkPeriodCount(f, "period_count", in.PeriodCount)
	checkText(f, "name", in.Name, 100, false)
}

// Validate checks an update of a phase of pricing type t; prefix is the
// path of the phase in the request ("" or "phases.2.").
func (in *UpdatePhaseInput) Validate(f *apierr.Fields, prefix string, t PricingType) {
	in.validateTerms(f, prefix, t)
	in.sdk.check(f, prefix, in.AmountCents)
}

// validateTerms checks the spec's members of an update of a phase of
// pricing type t.
func (in *UpdatePhaseInput) validateTerms(f *apierr.Fields, prefix string, t PricingType) {
	checkPricing(f, prefix, t, in.AmountCents, in.DiscountPercentage, false)
	checkPeriodCount(f, prefix+"period_count", in.PeriodCount)
	checkText(f, prefix+"name", in.Name, 100, false)
}

// ApplyTo sets the members in carries on p.
func (in *UpdatePhaseInput) ApplyTo(p *PhaseTerms) {
	setNullableText(&p.Name, in.Name)
	if in.PeriodCount != nil {
		v := *in.PeriodCount
		p.PeriodCount = &v
	}
	if in.Indefinite != nil && *in.Indefinite {
		p.PeriodCount = nil
	}
	if in.AmountCents != nil {
		v := *in.AmountCents
		p.Amount = &v
	}
	if in.DiscountPercentage != nil {
		v := NormalizedPercentage(*in.DiscountPercentage)
		p.DiscountPercentage = &v
	}
}

// NormalizedPercentage is a validated percentage as stored (two decimals).
func NormalizedPercentage(d Decimal) Decimal {
	n, _ := d.Hundredths()
	return DecimalFromHundredths(n, true)
}

func checkPricing(f *apierr.Fields, prefix string, t PricingType, amount *int64, pct *Decimal, create bool) {
	switch t {
	case PricingStatic:
		if amount == nil && create {
			f.Add(prefix+"amount_cents", "is required for static pricing")
		}
		if amount != nil && *amount < 0 {
			f.Add(prefix+"amount_cents", "must be at least 0")
		}
		if pct != nil {
			f.Add(prefix+"discount_percentage", "is only allowed for relative pricing")
		}
	case PricingRelative:
		if pct == nil && create {
			f.Add(prefix+"discount_percentage", "is required for relative pricing")
		}
		if pct != nil {
			if n, ok := pct.Hundredths(); !ok || n > 10000 {
				f.Add(prefix+"discount_percentage", "must be a number from 0 to 100 with at most two decimals")
			}
		}
		if amount != nil {
			f.Add(prefix+"amount_cents", "is only allowed for static pricing")
		}
	}
}

func checkPeriodCount(f *apierr.Fields, path string, n *int) {
	if n != nil && *n < 1 {
		f.Add(path, "must be at least 1 (send null for an indefinite phase)")
	}
}

// NewMetadata is the metadata a create request gives its product phase.
func (in *CreatePhaseInput) NewMetadata() Metadata { return MergeMetadata(nil, in.sdk.Metadata) }

// CheckMergedMetadata reports (at prefix) the metadata an update sends
// merged into current when it passes the limit of keys.
func (in *UpdatePhaseInput) CheckMergedMetadata(f *apierr.Fields, prefix string, current Metadata) {
	if in.sdk.Metadata != nil {
		CheckMetadataSize(f, prefix+"metadata", MergeMetadata(current, in.sdk.Metadata))
	}
}

// ApplyMetadataTo merges the metadata an update sends into ph's.
func (in *UpdatePhaseInput) ApplyMetadataTo(ph *ProductPhase) {
	if in.sdk.Metadata != nil {
		ph.Metadata = MergeMetadata(ph.Metadata, in.sdk.Metadata)
	}
}
