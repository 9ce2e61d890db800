package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/areas"
)

// Routes mounts every documented /v1 path on r, and GET /openapi.json,
// the OpenAPI document derived from what they mounted (openapi.go). It is
// public: a client generator needs no credential.
func Routes(r chi.Router, svc areas.Services) {
	rt := routes{mux: r.With(requireCredential, withIdempotencyKey), ops: new([]operation)}
	mount(rt, svc)
	r.Get("/openapi.json", serveOpenAPI(*rt.ops))
}

// mount mounts the resources: one line per resource, each of which mounts
// its own routes (accounts.go, capabilities.go, ...).
func mount(r routes, svc areas.Services) {
	accountRoutes(r, svc.Accounts.Accounts)
	capabilityRoutes(r, svc.Accounts.Capabilities)
	eventRoutes(r, svc.Webhooks)
	beneficialOwnerRoutes(r, svc.Accounts.Owners)
	identityVerificationRoutes(r, svc.Accounts.IdentityRuns)
	onboardingSessionRoutes(r, svc.Accounts.Onboarding)
	customerRoutes(r, svc.Catalog)
	productRoutes(r, svc.Catalog)
	subscriptionPhaseRoutes(r, svc.Catalog)
	paymentMethodRoutes(r, svc.Payments)
	couponRoutes(r, svc.Catalog)
	webhookEndpointRoutes(r, svc.Webhooks)
	phoneVerificationRoutes(r, svc.Accounts.PhoneVerifications)
	kycPrefillRoutes(r, svc.Accounts.Accounts)
	termsOfServiceRoutes(r, svc.Accounts.Terms)
	idvRoutes(r, svc.Accounts.IDV)
	bankAccountRoutes(r, svc.Accounts.BankAccounts)
	geoComplianceRoutes(r, svc.Accounts.Geo)
	feePlanRoutes(r, svc.Money)
	transferRoutes(r, svc.Money)
	chargeRoutes(r, svc.Money.Charges)
	threeDSIntentRoutes(r, svc.Money.ThreeDSIntents)
	payoutRoutes(r, svc.Funding)
	refundRoutes(r, svc.Money)
	disputeRoutes(r, svc.Money)
	chargeIntentRoutes(r, svc.Money)
	customerIdentityRoutes(r, svc.Accounts.CustomerIdentity)
	clientConfigurationRoutes(r, svc.Payments.ClientConfig)
	deviceAttestationRoutes(r, svc.Payments.DeviceAttestations)
	sdkSessionRoutes(r, svc.Money)
	invoiceRoutes(r, svc.Billing)
	subscriptionRoutes(r, svc.Billing)
	testClockRoutes(r, svc.Billing)
	usageRoutes(r, svc.Billing)
	usageReportRoutes(r, svc.Billing)
	usageInvoicingRoutes(r, svc.Billing)
	viewerRoutes(r, svc.Merchant)
}

// requireCredential answers an anonymous request 401 before its body is
// read: every route here needs a credential, and the caller must learn that
// first, not that its JSON is malformed. Which kind of credential may call
// an operation stays the operation's decision.
func requireCredential(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth.FromContext(r.Context()) == nil {
			_, err := auth.Require(r.Context())
			WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// NotFound answers unknown paths in the envelope.
func NotFound(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, &apierr.Error{Status: http.StatusNotFound, Code: "route_not_found",
		Message: "Unrecognized request URL (" + r.Method + " " + r.URL.Path + ")"})
}

// MethodNotAllowed answers a known path with the wrong method.
func MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, &apierr.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
		Message: "Method " + r.Method + " is not allowed on " + r.URL.Path})
}
