package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// sdkMembers is, per resource of the real service's SDK (Frame-Payments/
// frame-node, src/types/*.ts), the members its type declares that this
// server sends, written from the SDK's types (names only). Integrations
// built on the SDK read these names: renaming or dropping one breaks them
// and fails TestSDKShapes. Members the SDK declares that are not here are
// either optional ones this server has no value for, or the spec's
// differences listed in docs/decisions.md ("Differences from the SDK's
// types").
var sdkMembers = map[string][]string{
	"account": {"id", "object", "type", "status", "external_id", "metadata", "profile", "capabilities",
		"terms_of_service", "steps", "created", "updated", "livemode"},
	"bank_account": {"id", "object", "routing_number", "account_number_last_4", "account_type", "bank_name",
		"processor_name", "status", "customer_id", "account_id", "created", "updated", "livemode"},
	"beneficial_owner": {"id", "object", "account_id", "first_name", "middle_name", "last_name", "suffix", "email",
		"roles", "percent_ownership", "status", "livemode", "created", "updated"},
	"capability": {"id", "object", "name", "status", "disabled_reason"},
	"customer": {"id", "created", "updated", "livemode", "name", "email", "description", "phone", "date_of_birth",
		"billing_address", "shipping_address", "status", "payment_methods", "metadata", "object"},
	"product": {"id", "name", "livemode", "image", "description", "url", "shippable", "active", "default_price",
		"purchase_type", "recurring", "metadata", "created", "updated", "object"},
	"product_phase": {"id", "object", "product_id", "name", "amount", "price", "currency", "metadata", "created", "updated",
		"livemode"},
	"coupon": {"id", "object", "name", "discount_type", "duration", "metadata", "created", "updated", "livemode"},
	"promotion_code": {"id", "object", "code", "coupon_id", "active", "max_redemptions", "times_redeemed",
		"expires_at", "metadata", "created", "updated", "livemode"},
	"discount": {"id", "object", "coupon_id", "promotion_code_id", "customer_id", "created", "livemode"},
	"phone_verification": {"id", "object", "status", "phone_number", "account_id", "created", "updated",
		"livemode"},
	"geofence":       {"id", "object", "name", "geofence_type", "active", "status", "geofence_rules", "created", "updated"},
	"geo_compliance": {"status", "sonar_session_id", "evaluated_at"},
	"payment_method": {"id", "object", "customer", "account_id", "billing", "type", "livemode", "created", "updated",
		"status", "card"},
	"three_ds_intent": {"id", "object", "status", "payment_method_id", "created", "updated", "livemode"},
	"transfer_fee_plan": {"id", "object", "name", "fee_application_mode", "items", "created", "updated",
		"livemode"},
	"transfer_billing_agreement": {"id", "status", "category", "effective_date", "object", "account_id",
		"fee_plan", "transfer_fee_plan_id", "created", "updated", "livemode"},
	"transfer": {"id", "object", "amount", "currency", "status", "account_id", "source_payment_method",
		"destination_payment_method", "seller_id", "reference", "metadata", "created", "updated",
		"livemode"},
	"charge": {"id", "object", "amount", "currency", "status", "payment_method_id", "account", "acquirer_reference_number", "authorization_code", "refund_reason", "net_amount",
		"revenue_split", "metadata", "created", "updated", "livemode"},
	"refund": {"id", "currency", "status", "amount", "reason", "charge_intent", "object", "livemode", "created",
		"updated"},
	"dispute": {"id", "object", "amount_cents", "amount_currency", "charge_intent", "reason", "status",
		"display_status", "acquirer_reference_number", "authorization_code", "livemode", "created", "updated"},
	"onboarding_session": {"id", "object", "account_id", "client_secret", "steps", "return_url", "expires_at",
		"livemode", "url"},
	"customer_identity_verification": {"id", "object", "type", "status", "verification_url", "created", "updated",
		"pending", "verified", "failed"},
	"sdk_onboarding_session": {"id", "object", "status", "steps", "client_secret", "expires_at", "livemode",
		"created_at", "updated_at", "user_id", "customer_id", "entry_point", "metadata", "components", "completed_at"},
	// A customer's session on the same family (the SDK's create names a
	// customer): the PHP SDK requires the integer timestamps.
	"sdk_customer_onboarding_session": {"id", "object", "status", "customer_id", "steps", "entry_point",
		"metadata", "client_secret", "expires_at", "created_at", "updated_at", "livemode"},
	"device_attestation": {"challenge", "status", "key_id"},
	"charge_session":     {"id", "object", "status", "visitor_id", "created", "updated", "livemode"},
	"sonar_session":      {"id", "object", "status", "visitor_id", "created", "updated", "livemode"},
	"payment_link_session": {"id", "object", "url", "status", "client_reference_id", "metadata", "created", "updated",
		"livemode"},
	"webhook_endpoint":         {"id", "object", "url", "enabled", "created", "updated", "livemode"},
	"evervault_configuration":  {"app_id", "team_id"},
	"sift_configuration":       {"account_id", "beacon_key"},
	"google_pay_configuration": {"identifier", "environment", "processor", "processor_key"},
	"merchant_balance": {"status", "merchant_id", "currency", "dots_balance",
		"available_for_payout", "reserved_amount", "pending_payouts", "last_updated_at"},
	// An invoice's customer, which the PHP SDK (frame-php,
	// Models/Customers/Customer.php) builds a customer from: these it
	// requires (a string name and email, the rest optional).
	"invoice_customer": {"id", "object", "name", "email", "livemode", "created", "updated"},
	// A subscription and the charge intent of its latest payment attempt,
	// as the official subscription sample reads them (latest_charge_intent,
	// then that intent's client_secret).
	"subscription": {"id", "object", "status", "customer", "default_payment_method", "latest_charge_intent", "plan",
		"currency", "metadata", "created", "updated", "livemode"},
	"charge_intent": {"id", "object", "amount", "currency", "status", "client_secret", "customer", "payment_method",
		"subscription", "invoice", "latest_charge", "authorization_mode", "created", "livemode"},
	// A billing meter as the Ruby SDK's tests read it (name).
	"billing_meter": {"id", "object", "name"},
	// Usage recorded at /v1/billing/metering, as the Node SDK types it
	// (Metering) and the Ruby SDK reads it (name).
	"usage_record": {"id", "object", "event_name", "name", "customer_id", "value", "timestamp", "metadata", "created",
		"updated", "livemode"},
	// A discount validation as the Ruby SDK reads it: its results under
	// data, each with valid (and the coupon under the SDK's name).
	"discount_validation": {"validation_result", "total_discount_amount_cents", "data"},
	"code_validation":     {"code", "valid", "coupon_id", "promotion_code_id"},
	// An invoice as the Node SDK types a usage invoice (BillingInvoice):
	// every invoice renders so.
	"billing_invoice": {"id", "object", "amount", "currency", "status", "created", "updated", "livemode"},
	// An invoice's line item as the Ruby SDK's tests read it (unit_amount).
	"invoice_line_item": {"id", "object", "quantity", "unit_amount"},
}

// TestSDKShapes creates one object of each SDK resource through REST (the
// typed factories) and reads it back: every member of sdkMembers is there.
func TestSDKShapes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	get := func(path string) map[string]any {
		t.Helper()
		r := f.sk.Get(path)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		return r.JSON()
	}

	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	acctPath := "/v1/accounts/" + id(acct)
	owner := f.sk.CreateBeneficialOwner(id(acct), testenv.BeneficialOwner(100, "owner"))
	bank := f.sk.CreateBankAccount(testenv.BankAccount(id(acct), "000123456789"))
	pv := f.sk.CreatePhoneVerification(id(acct), testenv.PhoneVerificationSpec{})
	session := f.sk.CreateOnboardingSession(testenv.OnboardingSession(id(acct)))
	cust := f.sk.CreateCustomer(testenv.Customer())
	customerSession := f.sk.CreateSDKOnboardingSession(testenv.CustomerOnboardingSession(id(cust)))

	product := f.sk.CreateProduct(testenv.Product())
	phase := f.sk.CreatePhase(id(product), testenv.StaticPhase(1, 500, 3))
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)))
	cid := uuid.MustParse(id(cust))
	discounts, err := f.env.Redeem(context.Background(), catalog.Redemption{Codes: []string{code.Code},
		AmountCents: 10000, CustomerID: &cid, DiscountableType: "Invoice"})
	require.NoError(t, err)
	card := f.sk.CreateCard(id(cust), testenv.Visa) // attaching needs the secret key
	intent := f.pk.CreateThreeDSIntent(id(card))

	plan := f.sk.StandardPricing()
	payer := newPayer(t, f.sk, testenv.Visa)
	agreement := f.sk.CreateAgreement(id(plan), id(payer.account))
	transfer := f.sk.CreateTransfer(payer.charging(1000))
	refund := f.sk.CreateRefund(testenv.RefundOfTransfer(id(transfer)))
	disputed := f.sk.CreateTransfer(payer.charging(2000))
	dispute := f.sk.OpenDispute(disputed.LatestCharge.String(), "product_not_received")
	chargeSession := f.sk.CreateChargeSession(map[string]any{})
	sonarSession := f.sk.CreateSonarSession(map[string]any{})
	linkSession := f.sk.CreatePaymentLinkSession(map[string]any{"amount": 1000})
	civ := f.sk.CreateCustomerIdentityVerification(testenv.CustomerIdentityVerificationSpec{})
	endpoint := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("https://example.com/hooks"))
	meter := f.sk.PriceMeter("sdk.calls", id(product), "")
	validate := func() map[string]any {
		r := f.sk.Post("/v1/discounts/validate", map[string]any{"amount_cents": 10000, "promotion_codes": []string{code.Code},
			"customer_id": id(cust)})
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		return r.JSON()
	}
	record := f.sk.Post("/v1/billing/metering", map[string]any{"event_name": "sdk.calls", "customer_id": id(cust),
		"value": 1}).JSON()
	invoicePayer := f.sk.CreateInvoicePayer("")
	invoice := f.sk.CreateInvoice(invoicePayer.Invoice("request_payment", 1))
	subscriber := f.sk.CreateSubscriber(testenv.Visa)
	subscription := f.sk.CreateSubscription(subscriber.Subscription())
	attestation := challenge(t, f.pk)
	r := f.pk.Post(attestPath, map[string]any{"key_id": "k1", "attestation_object": "bzE=", "challenge": attestation["challenge"]})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	objects := map[string]func() map[string]any{
		"account":            func() map[string]any { return get(acctPath) },
		"bank_account":       func() map[string]any { return get("/v1/bank_accounts/" + id(bank)) },
		"beneficial_owner":   func() map[string]any { return get(acctPath + "/beneficial_owners/" + id(owner)) },
		"capability":         func() map[string]any { return get(acctPath + "/capabilities/phone_verification") },
		"customer":           func() map[string]any { return get("/v1/customers/" + id(cust)) },
		"product":            func() map[string]any { return get("/v1/products/" + id(product)) },
		"product_phase":      func() map[string]any { return get("/v1/products/" + id(product) + "/phases/" + id(phase)) },
		"coupon":             func() map[string]any { return get("/v1/coupons/" + id(coupon)) },
		"promotion_code":     func() map[string]any { return get("/v1/promotion_codes/" + id(code)) },
		"discount":           func() map[string]any { return get("/v1/discounts/" + id(discounts[0])) },
		"phone_verification": func() map[string]any { return get(acctPath + "/phone_verifications/" + id(pv)) },
		"geofence": func() map[string]any {
			return get("/v1/geofences")["data"].([]any)[0].(map[string]any)
		},
		"geo_compliance":     func() map[string]any { return get(acctPath + "/geo_compliance") },
		"payment_method":     func() map[string]any { return get("/v1/payment_methods/" + id(card)) },
		"three_ds_intent":    func() map[string]any { return get("/v1/3ds/intents/" + id(intent)) },
		"transfer_fee_plan":  func() map[string]any { return get("/v1/transfer_fee_plans/" + id(plan)) },
		"transfer":           func() map[string]any { return get("/v1/transfers/" + id(transfer)) },
		"charge":             func() map[string]any { return get("/v1/charges/" + transfer.LatestCharge.String()) },
		"refund":             func() map[string]any { return get("/v1/refunds/" + id(refund)) },
		"dispute":            func() map[string]any { return get("/v1/disputes/" + id(dispute)) },
		"onboarding_session": func() map[string]any { return get("/v1/onboarding_sessions?account_id=" + id(acct)) },
		"merchant_balance":   func() map[string]any { return get("/v1/merchant_balance") },
		"device_attestation": func() map[string]any {
			return get("/v1/client/device_attestation/" + id(attestation))
		},
		"sdk_onboarding_session": func() map[string]any {
			return get("/v1/onboarding/sessions/" + session.ID.String())
		},
		"sdk_customer_onboarding_session": func() map[string]any {
			return get("/v1/onboarding/sessions/" + customerSession.ID.String())
		},
		"customer_identity_verification": func() map[string]any {
			return get("/v1/customer_identity_verifications/" + id(civ))
		},
		"charge_session": func() map[string]any { return get("/v1/charge_sessions/" + id(chargeSession)) },
		"sonar_session":  func() map[string]any { return get("/v1/sonar_sessions/" + id(sonarSession)) },
		"payment_link_session": func() map[string]any {
			return get("/v1/payment_link_sessions/" + id(linkSession))
		},
		"webhook_endpoint": func() map[string]any {
			return get("/v1/webhook_endpoints/" + endpoint.ID.String())
		},
		"evervault_configuration":  func() map[string]any { return get("/v1/config/evervault") },
		"sift_configuration":       func() map[string]any { return get("/v1/config/sift") },
		"google_pay_configuration": func() map[string]any { return get("/v1/client/wallet/google_pay") },
		"billing_meter":            func() map[string]any { return get("/v1/billing/metering/" + meter.ID.String()) },
		"usage_record":             func() map[string]any { return get("/v1/billing/metering/" + id(record)) },
		"discount_validation":      func() map[string]any { return validate() },
		"code_validation": func() map[string]any {
			return validate()["data"].([]any)[0].(map[string]any)
		},
		"invoice_line_item": func() map[string]any {
			return get("/v1/invoices/" + invoice.ID.String() + "/line_items")["data"].([]any)[0].(map[string]any)
		},
		"billing_invoice": func() map[string]any { return get("/v1/invoices/" + invoice.ID.String()) },
		"invoice_customer": func() map[string]any {
			return get("/v1/invoices/" + invoice.ID.String())["customer"].(map[string]any)
		},
		"subscription": func() map[string]any { return get("/v1/subscriptions/" + id(subscription)) },
		"charge_intent": func() map[string]any {
			return get("/v1/charge_intents/" + subscription.LatestChargeIntentID.String())
		},
		"transfer_billing_agreement": func() map[string]any {
			return get("/v1/transfer_billing_agreements/" + id(agreement))
		},
	}
	require.Len(t, objects, len(sdkMembers), "every resource of the table is read")
	for resource, members := range sdkMembers {
		read, ok := objects[resource]
		require.True(t, ok, "no object is read for %s", resource)
		obj := read()
		for _, m := range members {
			assert.Contains(t, obj, m, "%s lacks the SDK's member %s", resource, m)
		}
	}
}

// sdkRequests are request bodies the real service's SDKs send, with the
// members their request types declare (frame-node src/types/*.ts,
// frame-php Models/*Request.php): each is accepted (2xx), and each member
// shows in the answer as sent. A member refused or dropped unseen breaks
// the integrations that send it and fails TestSDKRequestMembers.
var sdkRequests = []struct {
	name, method, path string
	body               func(ids map[string]string) map[string]any
	// shown is where each sent member reads back in the answer.
	shown map[string]any
}{
	{name: "onboarding.create (a customer)", method: http.MethodPost, path: "/v1/onboarding/sessions",
		body: func(ids map[string]string) map[string]any {
			return map[string]any{"customer_id": ids["customer"], "entry_point": "kyc", "metadata": map[string]any{"k": "v"}}
		},
		shown: map[string]any{"entry_point": "kyc", "metadata": map[string]any{"k": "v"}}},
	{name: "onboarding.create (an account)", method: http.MethodPost, path: "/v1/onboarding/sessions",
		body: func(ids map[string]string) map[string]any {
			return map[string]any{"account_id": ids["account"], "entry_point": "payout", "metadata": map[string]any{"k": "v"}}
		},
		shown: map[string]any{"entry_point": "payout", "metadata": map[string]any{"k": "v"}}},
	{name: "onboarding.update", method: http.MethodPatch, path: "/v1/onboarding/sessions/{session}",
		body: func(map[string]string) map[string]any {
			return map[string]any{"steps": map[string]any{"payment_method": map[string]any{"status": "completed"}},
				"status": "expired"}
		},
		shown: map[string]any{"status": "expired",
			"steps": map[string]any{"id_verification": map[string]any{"status": "pending"},
				"payment_method": map[string]any{"status": "completed"}}}},
	{name: "billing.createMetering", method: http.MethodPost, path: "/v1/billing/metering",
		body: func(ids map[string]string) map[string]any {
			return map[string]any{"event_name": "api_call", "customer_id": ids["customer"], "value": 2,
				"timestamp": testenv.Start.Unix(), "metadata": map[string]any{"k": "v"}}
		},
		shown: map[string]any{"event_name": "api_call", "value": 2.0, "timestamp": float64(testenv.Start.Unix()),
			"metadata": map[string]any{"k": "v"}}},
}

func TestSDKRequestMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	ids := map[string]string{"customer": id(cust),
		"account": id(f.sk.CreateAccount(testenv.Individual().WithCapabilities("idv")))}
	// The updated session is another customer's: the creates above do not replace it.
	other := f.sk.CreateCustomer(testenv.Customer())
	ids["session"] = f.sk.CreateSDKOnboardingSession(testenv.CustomerOnboardingSession(id(other))).ID.String()
	for _, req := range sdkRequests {
		path := req.path
		for k, v := range ids {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		r := f.sk.Do(req.method, path, req.body(ids), nil)
		require.Less(t, r.Status, 300, "%s: %s", req.name, r.Body)
		got := r.JSON()
		for member, want := range req.shown {
			assert.Equal(t, want, got[member], "%s: %s", req.name, member)
		}
	}
}
