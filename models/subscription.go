package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type subscriptionKind struct{}

func (subscriptionKind) objectName() string { return "subscription" }

// Subscription bills a customer or an account for a recurring product,
// period after period from its anchor (spec doc 2 §2.4, docs/billing.md).
type Subscription struct {
	bun.BaseModel `bun:"table:subscriptions,alias:sub"`
	Tenant

	ID                     uuid.UUID                `bun:"id,pk,type:uuid" json:"id"`
	Object                 Object[subscriptionKind] `bun:"-" json:"object"`
	Status                 SubscriptionStatus       `bun:"status" json:"status"`
	AccountID              *uuid.UUID               `bun:"account_id,type:uuid" json:"account" sdk:"account_id"`
	CustomerID             *uuid.UUID               `bun:"customer_id,type:uuid" json:"customer" sdk:"customer_id"`
	TestClockID            *uuid.UUID               `bun:"test_clock_id,type:uuid" json:"-"`
	ProductID              uuid.UUID                `bun:"product_id,type:uuid" json:"product"`
	Currency               string                   `bun:"currency" json:"currency"`
	Quantity               int                      `bun:"quantity" json:"quantity"`
	DefaultPaymentMethodID *uuid.UUID               `bun:"default_payment_method_id,type:uuid" json:"default_payment_method"`
	Description            *string                  `bun:"description" json:"description"`
	ProrationBehavior      ProrationBehavior        `bun:"proration_behavior" json:"proration_behavior"`
	// Anchor is where the current calendar of periods starts: the
	// creation instant, or the renewal at which an interval switch took
	// effect.
	Anchor              wire.Timestamp  `bun:"anchor,type:timestamptz" json:"-"`
	PeriodNumber        int             `bun:"period_number" json:"-"`
	CurrentPeriodStart  *wire.Timestamp `bun:"current_period_start,type:timestamptz" json:"current_period_start"`
	CurrentPeriodEnd    *wire.Timestamp `bun:"current_period_end,type:timestamptz" json:"current_period_end"`
	PeriodAmountCharged int64           `bun:"period_amount_charged" json:"-"`
	CreditBalance       int64           `bun:"credit_balance" json:"-"`
	PausedAt            *wire.Timestamp `bun:"paused_at,type:timestamptz" json:"paused_at"`
	ResumeAt            *wire.Timestamp `bun:"resume_at,type:timestamptz" json:"resume_at"`
	CanceledAt          *wire.Timestamp `bun:"canceled_at,type:timestamptz" json:"canceled_at"`

	ScheduledChangeID       *uuid.UUID                   `bun:"scheduled_change_id,type:uuid" json:"-"`
	ScheduledProductID      *uuid.UUID                   `bun:"scheduled_product_id,type:uuid" json:"-"`
	ScheduledIntervalSwitch *bool                        `bun:"scheduled_interval_switch" json:"-"`
	ScheduledChangeCreated  *wire.Timestamp              `bun:"scheduled_change_created,type:timestamptz" json:"-"`
	ScheduledChange         *SubscriptionScheduledChange `bun:"-" json:"scheduled_change"`

	NextPaymentAttempt *wire.Timestamp `bun:"next_payment_attempt,type:timestamptz" json:"-"`
	LatestInvoiceID    *uuid.UUID      `bun:"latest_invoice_id,type:uuid" json:"latest_invoice"`
	// LatestChargeIntentID is the charge intent of the latest payment
	// attempt of the latest invoice (null when that invoice was never
	// charged: paid out of band, or of nothing). It is read from the
	// invoice's charge in the subscription's statement, never stored twice.
	LatestChargeIntentID *uuid.UUID `bun:"latest_charge_intent,scanonly" json:"latest_charge_intent"`
	Metadata             Metadata   `bun:"metadata,type:jsonb" json:"metadata"`

	// Plan is the product billed, in the SDK's plan shape, derived from
	// BilledProduct.
	Plan *Plan `bun:"-" json:"plan"`
	// BilledProduct is the product billed, read in the subscription's
	// statement (ProductJSON) with the members its plan shows.
	BilledProduct *Product        `bun:"-" json:"-"`
	ProductJSON   json.RawMessage `bun:"product_json,scanonly" json:"-"`
	// Phases are the subscription's own phases, in ordinal order, read in
	// its statement (PhasesJSON); they price its periods.
	Phases                 []*SubscriptionPhase `bun:"-" json:"-"`
	PhasesJSON             json.RawMessage      `bun:"phases_json,scanonly" json:"-"`
	HasPhases              bool                 `bun:"-" json:"has_phases"`
	CurrentPhase           *SubscriptionPhase   `bun:"-" json:"current_phase"`
	EffectiveAmount        *int64               `bun:"-" json:"effective_amount"`
	EffectiveInterval      *string              `bun:"-" json:"effective_interval"`
	EffectiveIntervalCount *int                 `bun:"-" json:"effective_interval_count"`
	StartDate              wire.Timestamp       `bun:"-" json:"start_date"`

	Created wire.Timestamp `bun:"created,type:timestamptz" json:"created"`
	Updated wire.Timestamp `bun:"updated,type:timestamptz" json:"updated"`
}

type planKind struct{}

func (planKind) objectName() string { return "plan" }

// Plan is the product a subscription bills, as the SDK reads it: its
// interval, its price and whether it is still sold.
type Plan struct {
	ID            uuid.UUID         `json:"id"`
	Object        Object[planKind]  `json:"object"`
	Interval      RecurringInterval `json:"interval"`
	IntervalCount int               `json:"interval_count"`
	Product       uuid.UUID         `json:"product"`
	Amount        int64             `json:"amount"`
	Currency      string            `json:"currency"`
	Active        bool              `json:"active"`
	Created       int64             `json:"created"`
	Livemode      bool              `json:"livemode"`
}

// Scan decodes a plan kept as JSON (a change log's), which is never NULL.
func (p *Plan) Scan(src any) error { return scanJSONObject(src, p) }

// PlanColumns are the product's columns its plan shows (with its id).
var PlanColumns = []string{"recurring", "default_price", "active", "created"}

// PlanIn is the SDK's plan of the product billed in currency.
func (pr *Product) PlanIn(currency string) *Plan {
	p := &Plan{ID: pr.ID, Product: pr.ID, Amount: pr.DefaultPrice, Currency: currency, Active: pr.Active,
		Created: pr.Created.Unix(), Livemode: pr.Livemode}
	if pr.Recurring != nil {
		p.Interval, p.IntervalCount = pr.Recurring.Interval, max(pr.Recurring.IntervalCount, 1)
	}
	return p
}

type scheduledChangeKind struct{}

func (scheduledChangeKind) objectName() string { return "subscription_scheduled_change" }

// SubscriptionScheduledChange is a product swap queued for the next
// renewal (an interval switch): no credit is booked for it.
type SubscriptionScheduledChange struct {
	ID             uuid.UUID                   `json:"id"`
	Object         Object[scheduledChangeKind] `json:"object"`
	Product        uuid.UUID                   `json:"product"`
	IntervalSwitch bool                        `json:"interval_switch"`
	EffectiveDate  *wire.Timestamp             `json:"effective_date"`
	Created        wire.Timestamp              `json:"created"`
}

// Derive sets the members computed from the stored ones; effective
// members come from the phase in force (inForce, -1 for none) and the
// price of the current period.
func (s *Subscription) Derive(inForce int, price *int64) {
	if s.Metadata == nil {
		s.Metadata = Metadata{}
	}
	if s.Phases == nil {
		s.Phases = []*SubscriptionPhase{}
	}
	s.Plan = nil
	if s.BilledProduct != nil {
		s.Plan = s.BilledProduct.PlanIn(s.Currency)
	}
	s.StartDate = s.Created
	s.HasPhases = len(s.Phases) > 0
	s.CurrentPhase = nil
	if inForce >= 0 && inForce < len(s.Phases) {
		s.CurrentPhase = s.Phases[inForce]
	}
	s.EffectiveAmount, s.EffectiveInterval, s.EffectiveIntervalCount = price, nil, nil
	if s.Plan != nil {
		iv, n := string(s.Plan.Interval), s.Plan.IntervalCount
		s.EffectiveInterval, s.EffectiveIntervalCount = &iv, &n
	}
	s.ScheduledChange = nil
	if s.ScheduledChangeID != nil && s.ScheduledProductID != nil {
		sc := &SubscriptionScheduledChange{ID: *s.ScheduledChangeID, Product: *s.ScheduledProductID,
			EffectiveDate: s.CurrentPeriodEnd}
		if s.ScheduledIntervalSwitch != nil {
			sc.IntervalSwitch = *s.ScheduledIntervalSwitch
		}
		if s.ScheduledChangeCreated != nil {
			sc.Created = *s.ScheduledChangeCreated
		}
		s.ScheduledChange = sc
	}
}

// IsCustomerOwned says whether the subscription's payer is a customer:
// only those announce customer.subscription.* events.
func (s *Subscription) IsCustomerOwned() bool { return s.CustomerID != nil }
