package usage

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// The payer rows a report statement starts from (report_query.go).

// payerReport is the report of one customer or account (exactly one given)
// over a fixed window. An id that does not parse is 422 on its param
// without a statement; a deleted customer is 422 invalid state
// (usageReport), as every other usage operation on it is.
func payerReport(tx *store.Tenant, customer, account *string, w models.UsageWindow) (*reportQuery, error) {
	q := &reportQuery{start: constant(w.Start), end: constant(w.End)}
	if customer != nil {
		id, err := payerID("customer", *customer)
		if err != nil {
			return nil, err
		}
		q.base = tx.Select((*models.Customer)(nil)).ColumnExpr("cu.id AS report_customer_id").
			ColumnExpr("cu.deleted IS NOT NULL AS payer_deleted").Where("cu.id = ?", id)
		q.alias, q.payers = "cu", []payerMatch{{"customer_id", "cu.id"}}
		return q, nil
	}
	id, err := payerID("account", *account)
	if err != nil {
		return nil, err
	}
	q.base = tx.Select((*models.Account)(nil)).ColumnExpr("a.id AS report_account_id").Where("a.id = ?", id)
	q.alias, q.payers = "a", []payerMatch{{"account_id", "a.id"}}
	return q, nil
}

// namedReport is the report of the names asked, for the payer given or,
// with none, for every payer of the mode (the statement then starts from
// the names' meters).
func namedReport(tx *store.Tenant, customer, account *string, w models.UsageWindow, names []string) (*reportQuery, error) {
	if customer == nil && account == nil {
		q := &reportQuery{base: tx.Select((*models.BillingMeter)(nil)), alias: "bm", meterBase: true,
			start: constant(w.Start), end: constant(w.End), names: names}
		return q, nil
	}
	q, err := payerReport(tx, customer, account, w)
	if err != nil {
		return nil, err
	}
	q.names = names
	return q, nil
}

// subscriptionReport is the report of one subscription's payer (its
// account, or its customer for a legacy subscription) over its current
// period.
func subscriptionReport(tx *store.Tenant, id string) *reportQuery {
	q := subscriptionsReport(tx)
	q.base = q.base.Where("sub.id = ?", id)
	return q
}

// subscriptionsReport starts the report of subscriptions' payers over
// their current periods (the caller narrows the rows).
func subscriptionsReport(tx *store.Tenant) *reportQuery {
	return &reportQuery{
		base: tx.Select((*models.Subscription)(nil)).
			ColumnExpr("sub.id::text AS report_key, sub.customer_id AS report_customer_id, sub.account_id AS report_account_id").
			ColumnExpr(subscriptionPeriodStart + " AS period_start, " + subscriptionPeriodEnd + " AS period_end"),
		alias:  "sub",
		payers: []payerMatch{{"customer_id", "sub.customer_id"}, {"account_id", "sub.account_id"}},
		start:  sqlExpr{sql: subscriptionPeriodStart},
		end:    sqlExpr{sql: subscriptionPeriodEnd},
	}
}

// A subscription's period bounds, to the second, as the wire shows them
// and as events are stamped: an event stamped in the second a period
// started (the bound itself may carry microseconds) is that period's, and
// consecutive periods still tile.
const (
	subscriptionPeriodStart = "date_trunc('second', sub.current_period_start)"
	subscriptionPeriodEnd   = "date_trunc('second', sub.current_period_end)"
)

// currentMonthStart is the first instant of the calendar month (UTC)
// holding the customer's time: its test clock's frozen_time, else now
// (the argument).
const currentMonthStart = "(date_trunc('month', coalesce(tc.frozen_time, ?::timestamptz) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')"

// customersMonthReport starts the report of customers over the current
// calendar month of each (UTC, on its test clock's time when it has one;
// now is the server's time).
func customersMonthReport(tx *store.Tenant, now any) *reportQuery {
	end := "(" + currentMonthStart + " + interval '1 month')"
	return &reportQuery{
		base: tx.Select((*models.Customer)(nil)).
			ColumnExpr("cu.id::text AS report_key, cu.id AS report_customer_id").
			ColumnExpr(currentMonthStart+" AS period_start", now).
			ColumnExpr(end+" AS period_end", now).
			Join("LEFT JOIN test_clocks AS tc ON tc.merchant_id = cu.merchant_id AND tc.id = cu.test_clock_id"),
		alias:  "cu",
		payers: []payerMatch{{"customer_id", "cu.id"}},
		start:  sqlExpr{sql: currentMonthStart, args: []any{now}},
		end:    sqlExpr{sql: end, args: []any{now}},
	}
}

// payerID parses a payer id, 422 on param when it does not.
func payerID(param, raw string) (uuid.UUID, error) {
	id, ok := ids.Parse(raw)
	if !ok {
		return uuid.Nil, apierr.FieldError(param, "is not a "+param+" of this merchant and mode")
	}
	return id, nil
}
