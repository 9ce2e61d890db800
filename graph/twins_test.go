package graph_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/graph/generated"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/rest"
)

// twin is one REST route and the root GraphQL field that calls the same
// operation ("Query.x" or "Mutation.x"), or, when GraphQL has none, why.
type twin struct {
	route string // "METHOD /path" as chi declares it
	field string
	none  string
}

// sdkAlias is the reason of a route of the SDK compatibility families:
// the same operation as the route named, rendered in the SDK's shape.
func sdkAlias(of string) string { return "SDK compatibility alias of " + of }

// twins is the declared table of every REST route's GraphQL twin.
// TestEveryRouteHasItsTwin holds it to the router and the schema: a new
// route, a removed field or a stale row fails it.
var twins = []twin{
	{route: "POST /v1/3ds/intents", field: "Mutation.createThreeDSIntent"},
	{route: "GET /v1/3ds/intents/{id}", field: "Query.threeDSIntent"},
	{route: "POST /v1/3ds/intents/{id}/resend", field: "Mutation.resendThreeDSIntent"},
	{route: "GET /v1/accounts", field: "Query.accounts"},
	{route: "POST /v1/accounts", field: "Mutation.createAccount"},
	{route: "GET /v1/accounts/search", field: "Query.accounts"},
	{route: "DELETE /v1/accounts/{id}", field: "Mutation.disableAccount"},
	{route: "GET /v1/accounts/{id}", field: "Query.account"},
	{route: "PATCH /v1/accounts/{id}", field: "Mutation.updateAccount"},
	{route: "GET /v1/accounts/{id}/beneficial_owners", field: "Query.beneficialOwners"},
	{route: "POST /v1/accounts/{id}/beneficial_owners", field: "Mutation.createBeneficialOwner"},
	{route: "POST /v1/accounts/{id}/beneficial_owners/confirm", field: "Mutation.confirmBeneficialOwners"},
	{route: "DELETE /v1/accounts/{id}/beneficial_owners/{owner}", field: "Mutation.deleteBeneficialOwner"},
	{route: "GET /v1/accounts/{id}/beneficial_owners/{owner}", field: "Query.beneficialOwner"},
	{route: "PATCH /v1/accounts/{id}/beneficial_owners/{owner}", field: "Mutation.updateBeneficialOwner"},
	{route: "POST /v1/accounts/{id}/beneficial_owners/{owner}/resend_invite", field: "Mutation.resendBeneficialOwnerInvite"},
	{route: "GET /v1/accounts/{id}/capabilities", field: "Query.capabilities"},
	{route: "POST /v1/accounts/{id}/capabilities", field: "Mutation.requestCapabilities"},
	{route: "DELETE /v1/accounts/{id}/capabilities/{name}", field: "Mutation.disableCapability"},
	{route: "GET /v1/accounts/{id}/capabilities/{name}", field: "Query.capability"},
	{route: "POST /v1/accounts/{id}/capabilities/{name}/reactivate", field: "Mutation.reactivateCapability"},
	{route: "GET /v1/accounts/{id}/geo_compliance", field: "Mutation.evaluateGeoCompliance"},
	{route: "GET /v1/accounts/{id}/identity_verifications", field: "Query.identityVerifications"},
	{route: "POST /v1/accounts/{id}/identity_verifications", field: "Mutation.createIdentityVerification"},
	{route: "GET /v1/accounts/{id}/identity_verifications/{run}", field: "Query.identityVerification"},
	{route: "POST /v1/accounts/{id}/kyc_prefill/confirm", field: "Mutation.confirmKycPrefill"},
	{route: "GET /v1/accounts/{id}/payment_methods", field: "Query.paymentMethods"},
	{route: "GET /v1/accounts/{id}/phone_verifications", field: "Query.phoneVerifications"},
	{route: "POST /v1/accounts/{id}/phone_verifications", field: "Mutation.createPhoneVerification"},
	{route: "GET /v1/accounts/{id}/phone_verifications/{pv}", field: "Query.phoneVerification"},
	{route: "POST /v1/accounts/{id}/phone_verifications/{pv}/confirm", field: "Mutation.confirmPhoneVerification"},
	{route: "GET /v1/accounts/{id}/plaid_link_token", field: "Query.plaidLinkToken"},
	{route: "POST /v1/accounts/{id}/restrict", field: "Mutation.restrictAccount"},
	{route: "POST /v1/accounts/{id}/unrestrict", field: "Mutation.unrestrictAccount"},
	{route: "POST /v1/bank_accounts", field: "Mutation.createBankAccount"},
	{route: "GET /v1/bank_accounts/{id}", field: "Query.bankAccount"},
	{route: "GET /v1/billing/billing_credit", field: "Query.billingCredits"},
	{route: "POST /v1/billing/billing_credit", field: "Mutation.createBillingCredit"},
	{route: "GET /v1/billing/billing_credit/{id}", field: "Query.billingCredit"},
	{route: "POST /v1/billing/billing_invoice", field: "Mutation.createBillingInvoice"},
	{route: "GET /v1/billing/metering", field: "Query.billingMeters"},
	{route: "POST /v1/billing/metering", field: "Mutation.configureBillingMeter"},
	{route: "GET /v1/billing/metering/{id}", field: "Query.billingMeter"},
	{route: "PATCH /v1/billing/metering/{id}", field: "Mutation.updateBillingMeter"},
	{route: "GET /v1/billing/metering_events", field: "Query.meteringEvents"},
	{route: "POST /v1/billing/metering_events", field: "Mutation.createMeteringEvent"},
	{route: "GET /v1/billing/metering_events/{id}", field: "Query.meteringEvent"},
	{route: "PATCH /v1/billing/metering_events/{id}", field: "Mutation.updateMeteringEvent"},
	{route: "GET /v1/billing/report/customer", field: "Query.usageReport"},
	{route: "GET /v1/billing/report/event/{event_name}", field: "Query.eventUsageReport"},
	{route: "GET /v1/billing/report/events", field: "Query.eventUsageReport"},
	{route: "GET /v1/billing/report/subscription", field: "Query.subscriptionUsageReport"},
	{route: "GET /v1/billing/report/threshold_progress", field: "Query.thresholdProgress"},
	{route: "DELETE /v1/billing/thresholds", field: "Mutation.removeUsageThreshold"},
	{route: "POST /v1/billing/thresholds", field: "Mutation.setUsageThreshold"},
	{route: "GET /v1/charge_intents", field: "Query.chargeIntents"},
	{route: "POST /v1/charge_intents", field: "Mutation.createChargeIntent"},
	{route: "GET /v1/charge_intents/{id}", field: "Query.chargeIntent"},
	{route: "PATCH /v1/charge_intents/{id}", field: "Mutation.updateChargeIntent"},
	{route: "POST /v1/charge_intents/{id}/cancel", field: "Mutation.cancelChargeIntent"},
	{route: "POST /v1/charge_intents/{id}/capture", field: "Mutation.captureChargeIntent"},
	{route: "POST /v1/charge_intents/{id}/confirm", field: "Mutation.confirmChargeIntent"},
	{route: "POST /v1/charge_intents/{id}/void_remaining", field: "Mutation.voidRemainingChargeIntent"},
	{route: "GET /v1/charge_sessions", field: "Query.chargeSessions"},
	{route: "POST /v1/charge_sessions", field: "Mutation.createChargeSession"},
	{route: "GET /v1/charge_sessions/{id}", field: "Query.chargeSession"},
	{route: "PATCH /v1/charge_sessions/{id}", field: "Mutation.updateChargeSession"},
	{route: "GET /v1/charges/{id}", field: "Query.charge"},
	{route: "GET /v1/charges/{id}/trace", field: "Query.chargeTrace"},
	{route: "POST /v1/checkout_sessions", field: "Mutation.createCheckoutSession"},
	{route: "POST /v1/client/device_attestation/attest", field: "Mutation.attestDevice"},
	{route: "POST /v1/client/device_attestation/challenge", field: "Mutation.createDeviceAttestationChallenge"},
	{route: "GET /v1/client/device_attestation/{id}", field: "Query.deviceAttestation"},
	{route: "GET /v1/client/wallet/google_pay", field: "Query.googlePayConfiguration"},
	{route: "GET /v1/config/evervault", field: "Query.evervaultConfiguration"},
	{route: "GET /v1/config/sift", field: "Query.siftConfiguration"},
	{route: "GET /v1/coupons", field: "Query.coupons"},
	{route: "POST /v1/coupons", field: "Mutation.createCoupon"},
	{route: "GET /v1/coupons/{id}", field: "Query.coupon"},
	{route: "PATCH /v1/coupons/{id}", field: "Mutation.updateCoupon"},
	{route: "GET /v1/customer_identity_verifications", none: "the Ruby SDK's list (the spec gives none); GraphQL reads a customer's through Customer.identityVerifications"},
	{route: "POST /v1/customer_identity_verifications", field: "Mutation.createCustomerIdentityVerification"},
	{route: "GET /v1/customer_identity_verifications/{id}", field: "Query.customerIdentityVerification"},
	{route: "POST /v1/customer_identity_verifications/{id}", field: "Mutation.createCustomerIdentityVerification"},
	{route: "POST /v1/customer_identity_verifications/{id}/submit", field: "Mutation.submitCustomerIdentityVerification"},
	{route: "POST /v1/customer_identity_verifications/{id}/upload_documents", field: "Mutation.uploadCustomerIdentityDocuments"},
	{route: "GET /v1/customers", field: "Query.customers"},
	{route: "POST /v1/customers", field: "Mutation.createCustomer"},
	{route: "GET /v1/customers/search", field: "Query.customers"},
	{route: "DELETE /v1/customers/{id}", field: "Mutation.deleteCustomer"},
	{route: "GET /v1/customers/{id}", field: "Query.customer"},
	{route: "PATCH /v1/customers/{id}", field: "Mutation.updateCustomer"},
	{route: "POST /v1/customers/{id}/block", field: "Mutation.blockCustomer"},
	{route: "GET /v1/customers/{id}/payment_methods", field: "Query.paymentMethods"},
	{route: "POST /v1/customers/{id}/unblock", field: "Mutation.unblockCustomer"},
	{route: "GET /v1/discounts", field: "Query.discounts"},
	{route: "POST /v1/discounts/validate", field: "Query.validateDiscounts"},
	{route: "GET /v1/discounts/{id}", field: "Query.discount"},
	{route: "GET /v1/disputes", field: "Query.disputes"},
	{route: "GET /v1/disputes/{id}", field: "Query.dispute"},
	{route: "PATCH /v1/disputes/{id}", field: "Mutation.updateDispute"},
	{route: "POST /v1/disputes/{id}/documents", field: "Mutation.addDisputeDocument"},
	{route: "GET /v1/events", field: "Query.events"},
	{route: "GET /v1/events/{id}", field: "Query.event"},
	{route: "POST /v1/events/{id}/resend", field: "Mutation.resendEvent"},
	{route: "GET /v1/geofences", field: "Query.geofences"},
	{route: "POST /v1/idv/complete", field: "Mutation.completeIdv"},
	{route: "POST /v1/idv/session", field: "Mutation.createIdvSession"},
	{route: "GET /v1/invoices", field: "Query.invoices"},
	{route: "POST /v1/invoices", field: "Mutation.createInvoice"},
	{route: "DELETE /v1/invoices/{id}", field: "Mutation.deleteInvoice"},
	{route: "GET /v1/invoices/{id}", field: "Query.invoice"},
	{route: "PATCH /v1/invoices/{id}", field: "Mutation.updateInvoice"},
	{route: "POST /v1/invoices/{id}/issue", field: "Mutation.issueInvoice"},
	{route: "GET /v1/invoices/{id}/line_items", field: "Query.invoiceLineItems"},
	{route: "POST /v1/invoices/{id}/line_items", field: "Mutation.createInvoiceLineItem"},
	{route: "DELETE /v1/invoices/{id}/line_items/{line_item}", field: "Mutation.deleteInvoiceLineItem"},
	{route: "GET /v1/invoices/{id}/line_items/{line_item}", field: "Query.invoiceLineItem"},
	{route: "PATCH /v1/invoices/{id}/line_items/{line_item}", field: "Mutation.updateInvoiceLineItem"},
	{route: "POST /v1/invoices/{id}/mark_uncollectible", field: "Mutation.markInvoiceUncollectible"},
	{route: "POST /v1/invoices/{id}/pay", field: "Mutation.payInvoice"},
	{route: "POST /v1/invoices/{id}/void", field: "Mutation.voidInvoice"},
	{route: "GET /v1/me", field: "Query.viewer"},
	{route: "GET /v1/merchant_balance", field: "Query.merchantBalance"},
	{route: "GET /openapi.json", none: "the REST contract itself (docs/openapi.md); the graph describes itself by introspection"},
	{route: "GET /v1/onboarding/sessions", none: sdkAlias("GET /v1/onboarding_sessions (an account's one active session: Query.onboardingSession)")},
	{route: "POST /v1/onboarding/sessions", none: sdkAlias("POST /v1/onboarding_sessions (Mutation.createOnboardingSession)")},
	{route: "GET /v1/onboarding/sessions/{id}", none: sdkAlias("GET /v1/onboarding_sessions (a session is read through its account: Query.onboardingSession, Account.onboardingSession)")},
	{route: "PATCH /v1/onboarding/sessions/{id}", field: "Mutation.expireOnboardingSession"},
	{route: "POST /v1/onboarding/sessions/{id}/payout", field: "Mutation.recordOnboardingPayout"},
	{route: "GET /v1/onboarding_sessions", field: "Query.onboardingSession"},
	{route: "POST /v1/onboarding_sessions", field: "Mutation.createOnboardingSession"},
	{route: "GET /v1/onboarding_sessions/bootstrap", field: "Query.onboardingBootstrap"},
	{route: "GET /v1/payment_link_sessions", field: "Query.paymentLinkSessions"},
	{route: "POST /v1/payment_link_sessions", field: "Mutation.createPaymentLinkSession"},
	{route: "GET /v1/payment_link_sessions/{id}", field: "Query.paymentLinkSession"},
	{route: "GET /v1/payment_methods", field: "Query.paymentMethods"},
	{route: "POST /v1/payment_methods", field: "Mutation.createPaymentMethod"},
	{route: "POST /v1/payment_methods/connect_plaid", field: "Mutation.connectBankAccount"},
	{route: "GET /v1/payment_methods/{id}", field: "Query.paymentMethod"},
	{route: "PATCH /v1/payment_methods/{id}", field: "Mutation.updatePaymentMethod"},
	{route: "POST /v1/payment_methods/{id}/attach", field: "Mutation.attachPaymentMethod"},
	{route: "POST /v1/payment_methods/{id}/block", field: "Mutation.blockPaymentMethod"},
	{route: "POST /v1/payment_methods/{id}/detach", field: "Mutation.detachPaymentMethod"},
	{route: "POST /v1/payment_methods/{id}/unblock", field: "Mutation.unblockPaymentMethod"},
	{route: "GET /v1/payout_funding/entries", field: "Query.payoutFundingEntries"},
	{route: "GET /v1/payout_funding/entries/{id}", field: "Query.payoutFundingEntry"},
	{route: "GET /v1/payout_funding/schedules", field: "Query.payoutFundingSchedules"},
	{route: "POST /v1/payout_funding/schedules", field: "Mutation.createPayoutFundingSchedule"},
	{route: "GET /v1/payout_funding/schedules/{id}", field: "Query.payoutFundingSchedule"},
	{route: "PATCH /v1/payout_funding/schedules/{id}", field: "Mutation.updatePayoutFundingSchedule"},
	{route: "POST /v1/payout_funding/top_ups", field: "Mutation.createPayoutTopUp"},
	{route: "GET /v1/payouts", field: "Query.payouts"},
	{route: "POST /v1/payouts", field: "Mutation.createPayout"},
	{route: "GET /v1/payouts/{id}", field: "Query.payout"},
	{route: "GET /v1/products", field: "Query.products"},
	{route: "POST /v1/products", field: "Mutation.createProduct"},
	{route: "GET /v1/products/search", field: "Query.products"},
	{route: "DELETE /v1/products/{id}", field: "Mutation.deleteProduct"},
	{route: "GET /v1/products/{id}", field: "Query.product"},
	{route: "PATCH /v1/products/{id}", field: "Mutation.updateProduct"},
	{route: "GET /v1/products/{id}/phases", field: "Query.productPhases"},
	{route: "POST /v1/products/{id}/phases", field: "Mutation.createProductPhase"},
	{route: "PATCH /v1/products/{id}/phases/bulk_update", field: "Mutation.bulkUpdateProductPhases"},
	{route: "DELETE /v1/products/{id}/phases/{phase}", field: "Mutation.deleteProductPhase"},
	{route: "GET /v1/products/{id}/phases/{phase}", field: "Query.productPhase"},
	{route: "PATCH /v1/products/{id}/phases/{phase}", field: "Mutation.updateProductPhase"},
	{route: "GET /v1/promotion_codes", field: "Query.promotionCodes"},
	{route: "POST /v1/promotion_codes", field: "Mutation.createPromotionCode"},
	{route: "GET /v1/promotion_codes/{id}", field: "Query.promotionCode"},
	{route: "PATCH /v1/promotion_codes/{id}", field: "Mutation.updatePromotionCode"},
	{route: "GET /v1/refunds", field: "Query.refunds"},
	{route: "POST /v1/refunds", field: "Mutation.createRefund"},
	{route: "GET /v1/refunds/{id}", field: "Query.refund"},
	{route: "GET /v1/sonar_sessions", field: "Query.sonarSessions"},
	{route: "POST /v1/sonar_sessions", field: "Mutation.createSonarSession"},
	{route: "GET /v1/sonar_sessions/{id}", field: "Query.sonarSession"},
	{route: "PATCH /v1/sonar_sessions/{id}", field: "Mutation.updateSonarSession"},
	{route: "GET /v1/subscription_change_logs", field: "Query.subscriptionChangeLogs"},
	{route: "GET /v1/subscriptions", field: "Query.subscriptions"},
	{route: "POST /v1/subscriptions", field: "Mutation.createSubscription"},
	{route: "GET /v1/subscriptions/search", field: "Query.subscriptions"},
	{route: "GET /v1/subscriptions/{id}", field: "Query.subscription"},
	{route: "PATCH /v1/subscriptions/{id}", field: "Mutation.updateSubscription"},
	{route: "POST /v1/subscriptions/{id}/cancel", field: "Mutation.cancelSubscription"},
	{route: "GET /v1/subscriptions/{id}/change_logs", field: "Query.subscriptionChangeLogs"},
	{route: "POST /v1/subscriptions/{id}/pause", field: "Mutation.pauseSubscription"},
	{route: "GET /v1/subscriptions/{id}/phases", field: "Query.subscriptionPhases"},
	{route: "POST /v1/subscriptions/{id}/phases", field: "Mutation.createSubscriptionPhase"},
	{route: "PATCH /v1/subscriptions/{id}/phases/bulk_update", field: "Mutation.bulkUpdateSubscriptionPhases"},
	{route: "DELETE /v1/subscriptions/{id}/phases/{phase}", field: "Mutation.deleteSubscriptionPhase"},
	{route: "GET /v1/subscriptions/{id}/phases/{phase}", field: "Query.subscriptionPhase"},
	{route: "PATCH /v1/subscriptions/{id}/phases/{phase}", field: "Mutation.updateSubscriptionPhase"},
	{route: "POST /v1/subscriptions/{id}/resume", field: "Mutation.resumeSubscription"},
	{route: "DELETE /v1/subscriptions/{id}/scheduled_change", field: "Mutation.cancelSubscriptionScheduledChange"},
	{route: "PATCH /v1/terms_of_service", field: "Mutation.acceptTermsOfService"},
	{route: "POST /v1/terms_of_service", field: "Mutation.createTermsOfServiceToken"},
	{route: "POST /v1/test_helpers/3ds/intents/{id}/complete", field: "Mutation.completeThreeDSIntent"},
	{route: "POST /v1/test_helpers/charge_intents/{id}/complete_3d_secure", field: "Mutation.completeChargeIntentThreeDSecure"},
	{route: "POST /v1/test_helpers/charges/{id}/dispute", field: "Mutation.openSandboxDispute"},
	{route: "GET /v1/test_helpers/test_clocks", field: "Query.testClocks"},
	{route: "POST /v1/test_helpers/test_clocks", field: "Mutation.createTestClock"},
	{route: "DELETE /v1/test_helpers/test_clocks/{id}", field: "Mutation.deleteTestClock"},
	{route: "GET /v1/test_helpers/test_clocks/{id}", field: "Query.testClock"},
	{route: "POST /v1/test_helpers/test_clocks/{id}/advance", field: "Mutation.advanceTestClock"},
	{route: "POST /v1/test_helpers/transfers/{id}/complete_3d_secure", field: "Mutation.completeThreeDSecure"},
	{route: "GET /v1/transfer_billing_agreements", field: "Query.billingAgreements"},
	{route: "POST /v1/transfer_billing_agreements", field: "Mutation.createBillingAgreement"},
	{route: "GET /v1/transfer_billing_agreements/{id}", field: "Query.billingAgreement"},
	{route: "PATCH /v1/transfer_billing_agreements/{id}", field: "Mutation.updateBillingAgreement"},
	{route: "GET /v1/transfer_fee_plans", field: "Query.transferFeePlans"},
	{route: "POST /v1/transfer_fee_plans", field: "Mutation.createTransferFeePlan"},
	{route: "GET /v1/transfer_fee_plans/{id}", field: "Query.transferFeePlan"},
	{route: "GET /v1/transfers", field: "Query.transfers"},
	{route: "POST /v1/transfers", field: "Mutation.createTransfer"},
	{route: "GET /v1/transfers/{id}", field: "Query.transfer"},
	{route: "PATCH /v1/transfers/{id}", field: "Mutation.updateTransfer"},
	{route: "POST /v1/transfers/{id}/cancel", field: "Mutation.cancelTransfer"},
	{route: "POST /v1/transfers/{id}/capture", field: "Mutation.captureTransfer"},
	{route: "POST /v1/transfers/{id}/confirm", field: "Mutation.confirmTransfer"},
	{route: "GET /v1/webhook_deliveries/{id}", field: "Query.webhookDelivery"},
	{route: "GET /v1/webhook_endpoints", field: "Query.webhookEndpoints"},
	{route: "POST /v1/webhook_endpoints", field: "Mutation.createWebhookEndpoint"},
	{route: "DELETE /v1/webhook_endpoints/{id}", field: "Mutation.deleteWebhookEndpoint"},
	{route: "GET /v1/webhook_endpoints/{id}", field: "Query.webhookEndpoint"},
	{route: "PATCH /v1/webhook_endpoints/{id}", field: "Mutation.updateWebhookEndpoint"},
	{route: "GET /v1/webhook_endpoints/{id}/deliveries", field: "Query.webhookDeliveries"},
	{route: "POST /v1/webhook_endpoints/{id}/rotate_secret", field: "Mutation.rotateWebhookSecret"},
	{route: "GET /v2/transfers/{id}", field: "Query.transfer"},
}

// TestEveryRouteHasItsTwin walks the REST router and the schema: every
// route is in the twin table, every twin named there is a root field of
// the schema, every row names a route that exists, once, and every row
// says either its twin or why there is none.
func TestEveryRouteHasItsTwin(t *testing.T) {
	t.Parallel()
	router := chi.NewRouter()
	rest.Routes(router, areas.New(&op.Kit{}, areas.Options{}))
	var routes []string
	require.NoError(t, chi.Walk(router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+route)
		return nil
	}))
	sort.Strings(routes)
	require.NotEmpty(t, routes)

	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	rootField := func(name string) bool {
		typ, field, ok := strings.Cut(name, ".")
		if !ok || (typ != "Query" && typ != "Mutation") {
			return false
		}
		def := schema.Types[typ]
		return def != nil && def.Fields.ForName(field) != nil
	}

	declared := map[string]twin{}
	for _, tw := range twins {
		_, dup := declared[tw.route]
		require.False(t, dup, "%s is declared twice", tw.route)
		declared[tw.route] = tw
		require.True(t, (tw.field == "") != (tw.none == ""), "%s: declare either its twin or why it has none", tw.route)
		if tw.field != "" {
			require.True(t, rootField(tw.field), "%s: its twin %s is not a root field of the schema", tw.route, tw.field)
		}
	}
	var missing []string
	served := map[string]bool{}
	for _, r := range routes {
		served[r] = true
		if _, ok := declared[r]; !ok {
			missing = append(missing, r)
		}
	}
	require.Empty(t, missing, "routes without a row in the twin table (graph/twins_test.go)")
	var stale []string
	for _, tw := range twins {
		if !served[tw.route] {
			stale = append(stale, tw.route)
		}
	}
	require.Empty(t, stale, "rows of the twin table naming no route")
}
