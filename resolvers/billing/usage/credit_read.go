package usage

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// BillingCredits is the family of billing credit pools (docs/billing.md,
// "Billing credits"): reads from the kit, Create (credit_create.go); usage
// invoices consume them (credit_consume.go).
type BillingCredits struct {
	op.Reader[models.BillingCredit, BillingCreditFilter]
	// OfCustomers and OfAccounts read the newest pools of a batch of
	// payers in one statement (Customer.billingCredits,
	// Account.billingCredits).
	OfCustomers, OfAccounts op.Batch[[]*models.BillingCredit]
	svc                     *Service
}

// RecentBillingCredits is how many pools of each payer a page of payers
// reads in one batch: the payers' connections serve their first page from
// them.
const RecentBillingCredits = 100

// BillingCreditPosition is a pool's place in the newest-first order (its
// connection cursor).
func BillingCreditPosition(c *models.BillingCredit) op.Position { return creditTable.Position(c) }

// BillingCreditFilter narrows the list of billing credits.
type BillingCreditFilter struct {
	Customer *string `query:"customer" filter:"customer_id,id"`
	Account  *string `query:"account" filter:"account_id,id"`
	Product  *string `query:"product" filter:"product_id,id"`
}

// creditClockColumn is the frozen time of the test clock the pool's payer
// is bound to (NULL when none): a pool expires on its payer's clock.
const creditClockColumn = `(SELECT tc.frozen_time FROM test_clocks AS tc
	WHERE tc.merchant_id = bc.merchant_id AND tc.livemode = bc.livemode AND tc.id = coalesce(
	(SELECT cu.test_clock_id FROM customers AS cu WHERE cu.merchant_id = bc.merchant_id AND cu.livemode = bc.livemode
	AND cu.id = bc.customer_id),
	(SELECT a.test_clock_id FROM accounts AS a WHERE a.merchant_id = bc.merchant_id AND a.livemode = bc.livemode
	AND a.id = bc.account_id))) AS clock_time`

var creditTable = &op.Table[models.BillingCredit]{Resource: "billing_credit",
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr(creditClockColumn) },
	Derive:  func(c *models.BillingCredit, now time.Time) { c.Derive(now) }}

func newBillingCredits(s *Service) *BillingCredits {
	return &BillingCredits{Reader: op.Read[models.BillingCredit, BillingCreditFilter](s.Kit, creditTable), svc: s,
		OfCustomers: (&op.Children[models.BillingCredit]{Table: creditTable, Parent: "customer", Column: "customer_id",
			Limit: RecentBillingCredits}).Bind(s.Kit),
		OfAccounts: (&op.Children[models.BillingCredit]{Table: creditTable, Parent: "account", Column: "account_id",
			Limit: RecentBillingCredits}).Bind(s.Kit)}
}
