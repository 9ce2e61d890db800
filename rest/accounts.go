package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// accountRoutes mounts /v1/accounts (API-DECISIONS §4).
func accountRoutes(r routes, svc *accounts.Accounts) {
	h := accountHandlers{svc}
	r.Post("/v1/accounts", create(h.svc.Create))
	r.Get("/v1/accounts", handled(h.list, wireShape{query: append(params(true, "external_id"),
		closedParam[models.AccountStatus]("status"), closedParam[models.AccountType]("type"),
		queryParam{name: "include_disabled", kind: "boolean"}), responses: pageFrom("data", h.svc.List)}))
	r.Get("/v1/accounts/search", handled(h.search, wireShape{query: append(params(true, "name", "email", "external_id"),
		closedParam[models.AccountStatus]("status"), closedParam[models.AccountType]("type")),
		responses: pageFrom("data", h.svc.List)}))
	r.Get("/v1/accounts/{id}", get(h.svc.Get))
	r.Patch("/v1/accounts/{id}", update(h.svc.Update))
	r.Delete("/v1/accounts/{id}", action(h.svc.Disable))
	r.Post("/v1/accounts/{id}/restrict", action(h.svc.Restrict))
	r.Post("/v1/accounts/{id}/unrestrict", action(h.svc.Unrestrict))
}

type accountHandlers struct{ svc *accounts.Accounts }

func (h accountHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := accounts.AccountFilter{Status: closed[models.AccountStatus](q, "status"), Type: closed[models.AccountType](q, "type"),
		ExternalID: q.str("external_id"), IncludeDisabled: q.optBool("include_disabled")}
	h.respondList(w, r, q, f)
}

// search is the list with name and e-mail matching; it includes disabled
// accounts.
func (h accountHandlers) search(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	includeDisabled := true
	f := accounts.AccountFilter{Name: q.str("name"), Email: q.str("email"), ExternalID: q.str("external_id"),
		Status: closed[models.AccountStatus](q, "status"), Type: closed[models.AccountType](q, "type"), IncludeDisabled: &includeDisabled}
	h.respondList(w, r, q, f)
}

func (h accountHandlers) respondList(w http.ResponseWriter, r *http.Request, q *query, f accounts.AccountFilter) {
	page, err := readList(r, q, f, h.svc.List)
	respondPage(w, r, page, err)
}
