package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// usageReportRoutes mounts the usage reports (spec doc 2 §4.6): each
// decodes its query string and calls the reports family, which validates
// it (422, every problem at once) and reads the report.
func usageReportRoutes(r routes, svc *billing.Service) {
	rs := svc.Reports
	r.Get("/v1/billing/report/customer", report(func(q *query) *models.CustomerUsageReportInput {
		return &models.CustomerUsageReportInput{From: q.str("from"), To: q.str("to"), Customer: q.str("customer"), Account: q.str("account")}
	}, rs.Customer))
	r.Get("/v1/billing/report/event/{event_name}", report(func(q *query) *models.EventReportInput {
		name := chi.URLParam(q.r, "event_name")
		return &models.EventReportInput{EventName: &name, EventReportSpan: eventReportSpan(q)}
	}, rs.Event))
	r.Get("/v1/billing/report/events", report(func(q *query) *models.EventsReportInput {
		return &models.EventsReportInput{Events: q.str("events"), EventReportSpan: eventReportSpan(q)}
	}, rs.Events))
	r.Get("/v1/billing/report/subscription", report(func(q *query) *models.SubscriptionUsageReportInput {
		return &models.SubscriptionUsageReportInput{Subscription: q.str("subscription")}
	}, rs.Subscription))
}

// eventReportSpan reads the window and the payer of a report by event
// name.
func eventReportSpan(q *query) models.EventReportSpan {
	return models.EventReportSpan{StartDate: q.str("start_date"), EndDate: q.str("end_date"),
		Customer: q.str("customer"), Account: q.str("account")}
}

// report serves a GET whose query string is the operation's input: 400
// for a parameter that is not text, then the operation's answer.
// Its query parameters are the ones decode reads, found by running decode
// once on an empty query (queryRead).
func report[In, T any](decode func(q *query) *In, fn func(ctx context.Context, in *In) (T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		q := newQuery(r)
		in := decode(q)
		if err := q.err(); err != nil {
			WriteError(w, r, err)
			return
		}
		v, err := fn(r.Context(), in)
		respond(w, r, http.StatusOK, v, err)
	}, wireShape{query: queryRead(func(q *query) { decode(q) }), responses: ok[T](http.StatusOK)})
}
