package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// customerIdentityRoutes mounts /v1/customer_identity_verifications (spec
// doc 1 §4.10) and the submit route the real service's clients call.
// POST /v1/customer_identity_verifications/{id} creates a verification for
// the customer {id} (the spec's {customer_id}: one path segment, one name).
func customerIdentityRoutes(r chi.Router, svc *accounts.CustomerIdentity) {
	h := civHandlers{svc}
	r.Post("/v1/customer_identity_verifications", create(h.svc.Create))
	r.Get("/v1/customer_identity_verifications/{id}", get(h.svc.Get))
	r.Post("/v1/customer_identity_verifications/{id}", h.createForCustomer)
	r.Post("/v1/customer_identity_verifications/{id}/upload_documents", h.upload)
	r.Post("/v1/customer_identity_verifications/{id}/submit", h.submit)
}

type civHandlers struct{ svc *accounts.CustomerIdentity }

// createForCustomer takes no body (spec): a JSON one is read and ignored.
func (h civHandlers) createForCustomer(w http.ResponseWriter, r *http.Request) {
	var empty struct{}
	if err := decode(r, &empty); err != nil {
		WriteError(w, r, err)
		return
	}
	customer := chi.URLParam(r, "id")
	v, err := h.svc.Create(r.Context(), &models.CreateCustomerIdentityVerificationInput{CustomerID: &customer})
	respond(w, r, http.StatusCreated, v, err)
}

// upload reads the multipart body (multipart.go) only once the caller may
// upload at all.
func (h civHandlers) upload(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.AuthorizeUpload(r.Context()); err != nil {
		WriteError(w, r, err)
		return
	}
	in, err := readDocuments(w, r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	v, err := h.svc.Upload(r.Context(), chi.URLParam(r, "id"), in)
	respond(w, r, http.StatusOK, v, err)
}

func (h civHandlers) submit(w http.ResponseWriter, r *http.Request) {
	var empty struct{}
	if err := decode(r, &empty); err != nil {
		WriteError(w, r, err)
		return
	}
	v, err := h.svc.Submit(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, v, err)
}
