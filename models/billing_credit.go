package models

import (
	"math/big"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type billingCreditKind struct{}

func (billingCreditKind) objectName() string { return "billing_credit" }

// BillingCredit is a pool of credits a payer holds for a product (spec doc
// 2 §2.6): units of the usage of the meters that product prices, applied
// by usage invoices made before it expires (docs/billing.md, "Billing
// credits"). billing_credits, available_credits and used_credits travel as
// decimal strings (used credits may be fractional: usage is). customer_id
// and account_id repeat customer and account for the official SDK.
type BillingCredit struct {
	bun.BaseModel `bun:"table:billing_credits,alias:bc"`
	Tenant

	ID               uuid.UUID                 `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[billingCreditKind] `bun:"-" json:"object"`
	Customer         *uuid.UUID                `bun:"customer_id,type:uuid" json:"customer"`
	CustomerID       *uuid.UUID                `bun:"-" json:"customer_id"`
	Account          *uuid.UUID                `bun:"account_id,type:uuid" json:"account"`
	AccountID        *uuid.UUID                `bun:"-" json:"account_id"`
	Product          uuid.UUID                 `bun:"product_id,type:uuid" json:"product"`
	Allocation       int64                     `bun:"billing_credits" json:"-"`
	Used             UsageNumber               `bun:"used_credits,type:numeric" json:"-"`
	BillingCredits   string                    `bun:"-" json:"billing_credits"`
	AvailableCredits string                    `bun:"-" json:"available_credits"`
	UsedCredits      string                    `bun:"-" json:"used_credits"`
	Status           BillingCreditStatus       `bun:"-" json:"status"`
	Watchlist        bool                      `bun:"watchlist" json:"watchlist"`
	Limited          bool                      `bun:"limited" json:"limited"`
	Expires          wire.Timestamp            `bun:"expires,type:timestamptz" json:"expires"`
	ExhaustedAt      *wire.Timestamp           `bun:"exhausted_at,type:timestamptz" json:"-"`
	Metadata         Metadata                  `bun:"metadata,type:jsonb" json:"metadata"`
	Created          wire.Timestamp            `bun:"created,type:timestamptz" json:"created"`
	Updated          wire.Timestamp            `bun:"updated,type:timestamptz" json:"updated"`

	// ClockTime is the frozen time of the test clock the payer is bound
	// to (read with the pool), nil when it is on none: the pool expires
	// on its payer's clock.
	ClockTime *time.Time `bun:"clock_time,scanonly" json:"-"`
}

// Available is what the pool still holds.
func (c *BillingCredit) Available() *big.Rat {
	return new(big.Rat).Sub(big.NewRat(c.Allocation, 1), c.Used.Rat())
}

// Derive sets the wire members computed from the stored ones, the status
// as of now on the payer's clock (ClockTime when it has one).
func (c *BillingCredit) Derive(now time.Time) {
	if c.ClockTime != nil {
		now = *c.ClockTime
	}
	c.CustomerID, c.AccountID = c.Customer, c.Account
	c.BillingCredits = strconv.FormatInt(c.Allocation, 10)
	c.UsedCredits = c.Used.String()
	c.AvailableCredits = UsageFromRat(c.Available()).String()
	switch {
	case c.Available().Sign() <= 0:
		c.Status = BillingCreditExhausted
	case !c.Expires.After(now):
		c.Status = BillingCreditExpired
	default:
		c.Status = BillingCreditActive
	}
	if c.Metadata == nil {
		c.Metadata = Metadata{}
	}
}

// MaxBillingCredits bounds a pool's allocation (units of usage, below the
// largest usage value).
const MaxBillingCredits = 1_000_000_000_000

// CreateBillingCreditInput is the body of POST /v1/billing/billing_credit.
// customer_id (the SDK's name) is taken for customer.
type CreateBillingCreditInput struct {
	Product        *string       `json:"product"`
	BillingCredits *int64        `json:"billing_credits" range:"amount"`
	Expires        *UsageTime    `json:"expires"`
	Customer       *string       `json:"customer"`
	CustomerID     *string       `json:"customer_id"`
	Account        *string       `json:"account"`
	Limited        *bool         `json:"limited"`
	Metadata       MetadataInput `json:"metadata"`
}

// Validate reports every problem at once; it settles customer_id into
// Customer. That expires is after the payer's time is the write's check
// (the payer's clock is read there).
func (in *CreateBillingCreditInput) Validate() error {
	var f apierr.Fields
	checkUsagePayer(&f, &in.Customer, in.CustomerID, in.Account)
	checkText(&f, "product", in.Product, 64, true)
	switch {
	case in.BillingCredits == nil:
		f.Add("billing_credits", "is required")
	case *in.BillingCredits <= 0 || *in.BillingCredits > MaxBillingCredits:
		f.Add("billing_credits", "must be an integer between 1 and "+strconv.FormatInt(MaxBillingCredits, 10))
	}
	if in.Expires == nil {
		f.Add("expires", "is required")
	}
	in.Expires.check(&f, "expires")
	checkUsageMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}

// checkUsagePayer requires exactly one payer, customer or account, and
// settles the SDK's customer_id into customer.
func checkUsagePayer(f *apierr.Fields, customer **string, customerID, account *string) {
	if *customer == nil {
		*customer = customerID
	} else if customerID != nil && *customerID != **customer {
		f.Add("customer_id", "differs from customer")
	}
	checkOnePayer(f, *customer, account, payerRequired)
}
