package rest

import (
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// invoiceRoutes mounts /v1/invoices and their line items (spec doc 2 §4.5,
// API-DECISIONS §4).
func invoiceRoutes(r routes, svc *billing.Service) {
	inv, li := svc.Invoices, svc.LineItems
	r.Post("/v1/invoices", create(inv.Create))
	r.Get("/v1/invoices", list(inv.List))
	r.Get("/v1/invoices/{id}", get(inv.Get))
	r.Patch("/v1/invoices/{id}", update(inv.Update))
	r.Delete("/v1/invoices/{id}", action(inv.Delete))
	r.Post("/v1/invoices/{id}/issue", action(inv.Issue))
	r.Post("/v1/invoices/{id}/pay", update(inv.Pay))
	r.Post("/v1/invoices/{id}/void", action(inv.Void))
	r.Post("/v1/invoices/{id}/mark_uncollectible", action(inv.MarkUncollectible))
	r.Get("/v1/invoices/{id}/line_items", dataOf(li.List)) // {data: [line item]} (spec doc 2 §4.5)
	r.Post("/v1/invoices/{id}/line_items", createIn(li.Create))
	r.Get("/v1/invoices/{id}/line_items/{line_item}", getOf("line_item", li.Get))
	r.Patch("/v1/invoices/{id}/line_items/{line_item}", updateOf("line_item", li.Update))
	r.Delete("/v1/invoices/{id}/line_items/{line_item}", getOf("line_item", li.Delete))
}
