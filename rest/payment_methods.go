package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/payments"
)

// paymentMethodRoutes mounts /v1/payment_methods and the customer's and
// account's payment method lists (spec doc 2 §4.2, §4.3).
func paymentMethodRoutes(r routes, svc *payments.Service) {
	h := paymentMethodHandlers{svc.PaymentMethods}
	r.Post("/v1/payment_methods", create(h.svc.Create))
	r.Get("/v1/payment_methods", handled(h.list, paymentMethodListWire(h.svc)))
	r.Post("/v1/payment_methods/connect_plaid", create(svc.BankLinks.Connect))
	r.Get("/v1/payment_methods/{id}", get(h.svc.Get))
	r.Patch("/v1/payment_methods/{id}", update(h.svc.Update))
	r.Post("/v1/payment_methods/{id}/attach", update(h.svc.Attach))
	r.Post("/v1/payment_methods/{id}/detach", action(h.svc.Detach))
	r.Post("/v1/payment_methods/{id}/block", action(h.svc.Block))
	r.Post("/v1/payment_methods/{id}/unblock", action(h.svc.Unblock))
	r.Get("/v1/customers/{id}/payment_methods", handled(h.listOfCustomer, paymentMethodListWire(h.svc)))
	r.Get("/v1/accounts/{id}/payment_methods", handled(h.listOfAccount, paymentMethodListWire(h.svc)))
}

type paymentMethodHandlers struct{ svc *payments.PaymentMethods }

func (h paymentMethodHandlers) list(w http.ResponseWriter, r *http.Request) {
	h.respondList(w, r, payments.PaymentMethodFilter{})
}

func (h paymentMethodHandlers) listOfCustomer(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	h.respondList(w, r, payments.PaymentMethodFilter{CustomerID: &id})
}

func (h paymentMethodHandlers) listOfAccount(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	h.respondList(w, r, payments.PaymentMethodFilter{AccountID: &id})
}

// paymentMethodListWire is what respondList reads and answers.
func paymentMethodListWire(svc *payments.PaymentMethods) wireShape {
	return wireShape{query: append(params(true), queryParam{name: "include_wallets", kind: "boolean"}), responses: pageFrom("data", svc.List)}
}

func (h paymentMethodHandlers) respondList(w http.ResponseWriter, r *http.Request, f payments.PaymentMethodFilter) {
	q := newQuery(r)
	f.IncludeWallets = q.boolean("include_wallets")
	page, err := readList(r, q, f, h.svc.List)
	respondPage(w, r, page, err)
}
