package rest

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// usageInvoicingRoutes mounts usage billing's credits, usage invoices and
// auto-charge thresholds (spec doc 2 §4.6; the thresholds' setting paths
// are the project's, docs/billing.md).
func usageInvoicingRoutes(r routes, svc *billing.Service) {
	cs, ts := svc.BillingCredits, svc.UsageThresholds
	r.Post("/v1/billing/billing_credit", create(cs.Create))
	r.Get("/v1/billing/billing_credit", list(cs.List))
	r.Get("/v1/billing/billing_credit/{id}", get(cs.Get))
	r.Post("/v1/billing/billing_invoice", create(svc.UsageInvoices.Create))
	r.Post("/v1/billing/thresholds", call(ts.Set))
	r.Delete("/v1/billing/thresholds", payerQuery(ts.Remove))
	r.Get("/v1/billing/report/threshold_progress", payerQuery(ts.Progress))
}

// payerQuery serves a request naming its payer in the query string
// (customer, customer_id or account): the reports' handler with the
// payer as its input.
func payerQuery[T any](fn func(context.Context, *models.UsagePayerInput) (T, error)) endpoint {
	return report(func(q *query) *models.UsagePayerInput {
		return &models.UsagePayerInput{Customer: q.str("customer"), CustomerID: q.str("customer_id"), Account: q.str("account")}
	}, fn)
}
