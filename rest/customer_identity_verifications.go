package rest

import (
	"context"
	"mime"
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// customerIdentityRoutes mounts /v1/customer_identity_verifications (spec
// doc 1 §4.10) and the submit route the real service's clients call.
// POST /v1/customer_identity_verifications/{id} creates a verification for
// the customer {id} (the spec's {customer_id}: one path segment, one name).
// The spec gives no list; the real service's Ruby SDK lists them, so GET
// pages the merchant's verifications, newest first, in the spec's list
// envelope (docs/decisions.md).
func customerIdentityRoutes(r routes, svc *accounts.CustomerIdentity) {
	r.Post("/v1/customer_identity_verifications", create(svc.Create))
	r.Get("/v1/customer_identity_verifications", list(svc.List))
	r.Get("/v1/customer_identity_verifications/{id}", get(svc.Get))
	// The customer's own path takes no body (spec): an empty JSON object
	// is read and ignored.
	r.Post("/v1/customer_identity_verifications/{id}", bodiless(http.StatusCreated,
		func(ctx context.Context, customer string) (*models.CustomerIdentityVerification, error) {
			return svc.Create(ctx, &models.CreateCustomerIdentityVerificationInput{CustomerID: &customer})
		}))
	r.Post("/v1/customer_identity_verifications/{id}/upload_documents", uploadDocuments(svc))
	r.Post("/v1/customer_identity_verifications/{id}/submit", bodiless(http.StatusOK, svc.Submit))
}

// uploadDocuments reads the body only once the caller may upload at all:
// multipart/form-data carries the documents (multipart.go), JSON names
// them by reference (the real service's SDK's uploadDocuments).
func uploadDocuments(svc *accounts.CustomerIdentity) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		if err := svc.AuthorizeUpload(r.Context()); err != nil {
			WriteError(w, r, err)
			return
		}
		var in *models.UploadIdentityDocumentsInput
		var err error
		if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType == "application/json" {
			var refs models.DocumentReferencesInput
			if err = decode(r, &refs); err == nil {
				in = refs.Upload()
			}
		} else {
			in, err = readDocuments(w, r)
		}
		if err != nil {
			WriteError(w, r, err)
			return
		}
		v, err := svc.Upload(r.Context(), chi.URLParam(r, "id"), in)
		respond(w, r, http.StatusOK, v, err)
	}, wireShape{body: reflect.TypeFor[models.DocumentReferencesInput](), multipart: []string{"id_front", "id_back", "selfie"},
		responses: ok[*models.CustomerIdentityVerification](http.StatusOK)})
}
