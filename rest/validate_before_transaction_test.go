package rest_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// Invalid input is refused before the write's transaction opens: the
// 422 lists every problem at once, the request costs no statement beyond
// the credential's look-up (not even its Idempotency-Key's claim, the
// transaction's first statement), and nothing is written. Each case is a write
// whose check once ran inside its transaction, against a time or a stored
// row that cannot change these problems.
func TestInvalidInputIsRefusedBeforeTheTransaction(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	account := "/v1/accounts/" + id(a)
	owner := f.sk.CreateBeneficialOwner(id(a), testenv.PartialOwner("owner"))
	customer := f.sk.CreateCustomer(testenv.Customer())
	subscription := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	f.sk.StandardPricing()
	transfer := f.sk.CreateTransfer(newPayer(t, f.sk, testenv.Visa).charging(1000))
	endpoint := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("https://example.com/hooks"))
	endpointPath := "/v1/webhook_endpoints/" + endpoint.ID.String()
	identityRows := func() string {
		var n int
		require.NoError(t, f.env.DB.Bun.QueryRowContext(context.Background(),
			"SELECT count(*) FROM customer_identity_verifications").Scan(&n))
		return strconv.Itoa(n)
	}
	longKey := strings.Repeat("k", 41)
	longName := strings.Repeat("x", 101)
	product := f.sk.CreateProduct(testenv.Product())
	productPhases := "/v1/products/" + product.ID.String() + "/phases"
	productPhaseID := f.sk.CreatePhase(product.ID.String(), testenv.StaticPhase(0, 500, 1)).ID.String()
	productPhase := productPhases + "/" + productPhaseID
	subscriptionPhases := subscriptionPhasesOf(subscription)
	subscriptionPhaseID := f.sk.CreateSubscriptionPhase(subscription, testenv.StaticPhase(0, 500, 1)).ID.String()
	subscriptionPhase := subscriptionPhases + "/" + subscriptionPhaseID

	cases := []struct {
		name     string
		method   string
		path     string
		body     map[string]any
		problems map[string]string // path -> one of its problems
		// unchanged reads what the write would have changed.
		unchanged string
		rows      func() string
	}{
		{name: "account create", method: http.MethodPost, path: "/v1/accounts",
			body: map[string]any{"type": "robot", "metadata": map[string]any{longKey: "x"}},
			problems: map[string]string{"type": "", "profile": "is required",
				"metadata." + longKey: "key must be at most 40 characters"},
			unchanged: "/v1/accounts"},
		{name: "account update", method: http.MethodPatch, path: account,
			body:      map[string]any{"external_id": strings.Repeat("x", 256), "terms_of_service": map[string]any{"ip_address": "nope"}},
			problems:  map[string]string{"external_id": "", "terms_of_service.ip_address": "is not a valid IP address"},
			unchanged: account},
		{name: "beneficial owner create", method: http.MethodPost, path: account + "/beneficial_owners",
			body:      map[string]any{"email": "nope"},
			problems:  map[string]string{"first_name": "", "last_name": "", "email": "", "roles": "is required"},
			unchanged: account + "/beneficial_owners"},
		{name: "beneficial owner update", method: http.MethodPatch, path: account + "/beneficial_owners/" + owner.ID.String(),
			body:      map[string]any{"email": "nope", "roles": []any{}},
			problems:  map[string]string{"email": "", "roles": "must name at least one role"},
			unchanged: account + "/beneficial_owners/" + owner.ID.String()},
		{name: "phone verification create", method: http.MethodPost, path: account + "/phone_verifications",
			body:      map[string]any{"phone_number": "12", "type": "Not A Type"},
			problems:  map[string]string{"phone_number": "is not a valid phone number", "type": ""},
			unchanged: account + "/phone_verifications"},
		{name: "customer identity verification create", method: http.MethodPost, path: "/v1/customer_identity_verifications",
			body:     map[string]any{"email": "nope", "ssn": "1"},
			problems: map[string]string{"email": "", "ssn": "must be XXX-XX-XXXX or 10 digits"},
			rows:     identityRows},
		{name: "terms of service accept", method: http.MethodPatch, path: "/v1/terms_of_service",
			body:      map[string]any{"ip_address": "nope"},
			problems:  map[string]string{"token": "", "ip_address": "is not a valid IP address"},
			unchanged: account},
		{name: "customer update", method: http.MethodPatch, path: "/v1/customers/" + customer.ID.String(),
			body: map[string]any{"email": "nope", "test_clock": "clock"},
			problems: map[string]string{"email": "",
				"test_clock": "cannot change: a customer is bound to a test clock when it is created"},
			unchanged: "/v1/customers/" + customer.ID.String()},
		{name: "subscription phase create", method: http.MethodPost, path: subscriptionPhasesOf(subscription),
			body:      map[string]any{"name": strings.Repeat("x", 101)},
			problems:  map[string]string{"name": "must be at most 100 characters", "ordinal": "is required", "pricing_type": "is required"},
			unchanged: subscriptionPhasesOf(subscription)},
		{name: "product phase update", method: http.MethodPatch, path: productPhase,
			body:      map[string]any{"name": longName, "period_count": 0},
			problems:  map[string]string{"name": "must be at most 100 characters", "period_count": ""},
			unchanged: productPhases},
		{name: "product phase bulk update", method: http.MethodPatch, path: productPhases + "/bulk_update",
			body: map[string]any{"phases": []any{map[string]any{"id": productPhaseID, "name": longName},
				map[string]any{"id": "nope"}, map[string]any{"name": "Trial"}}},
			problems: map[string]string{"phases.0.name": "must be at most 100 characters",
				"phases.1.id": "is not a phase of this product", "phases.2.id": "is required"},
			unchanged: productPhases},
		{name: "product phase bulk update past its entries", method: http.MethodPatch, path: productPhases + "/bulk_update",
			body:      map[string]any{"phases": tooManyPhaseEntries(productPhaseID)},
			problems:  map[string]string{"phases": "lists too many phases: at most 100 per request"},
			unchanged: productPhases},
		{name: "subscription phase update", method: http.MethodPatch, path: subscriptionPhase,
			body:      map[string]any{"ordinal": -1, "name": longName},
			problems:  map[string]string{"ordinal": "must be at least 0", "name": "must be at most 100 characters"},
			unchanged: subscriptionPhases},
		{name: "subscription phase bulk update", method: http.MethodPatch, path: subscriptionPhases + "/bulk_update",
			body: map[string]any{"phases": []any{map[string]any{"id": subscriptionPhaseID, "ordinal": -1},
				map[string]any{"id": strings.ToUpper(subscriptionPhaseID)}}},
			problems: map[string]string{"phases.0.ordinal": "must be at least 0",
				"phases.1.id": "is not a phase of this subscription"},
			unchanged: subscriptionPhases},
		{name: "transfer update", method: http.MethodPatch, path: "/v1/transfers/" + transfer.ID.String(),
			body:      map[string]any{"description": strings.Repeat("x", 100000), "metadata": map[string]any{longKey: nil}},
			problems:  map[string]string{"description": "", "metadata." + longKey: "key must be at most 40 characters"},
			unchanged: "/v1/transfers/" + transfer.ID.String()},
		{name: "webhook endpoint create", method: http.MethodPost, path: "/v1/webhook_endpoints",
			body:      map[string]any{"url": "ftp://example.com"},
			problems:  map[string]string{"url": "", "event_codes": "is required"},
			unchanged: "/v1/webhook_endpoints"},
		{name: "webhook endpoint update", method: http.MethodPatch, path: endpointPath,
			body:      map[string]any{"url": "ftp://example.com", "status": "paused"},
			problems:  map[string]string{"url": "", "status": ""},
			unchanged: endpointPath},
		{name: "webhook endpoint secret rotation", method: http.MethodPost, path: endpointPath + "/rotate_secret",
			body:      map[string]any{"grace_period_seconds": -1},
			problems:  map[string]string{"grace_period_seconds": ""},
			unchanged: endpointPath},
	}
	for i, c := range cases {
		read := c.rows
		if read == nil {
			read = func() string {
				r := f.sk.Get(c.unchanged)
				require.Equal(t, http.StatusOK, r.Status, string(r.Body))
				return string(r.Body)
			}
		}
		before := read()
		r := f.sk.Do(c.method, c.path, c.body, http.Header{"Idempotency-Key": {"refused-" + strconv.Itoa(i)}})
		paths := make([]string, 0, len(c.problems))
		for path := range c.problems {
			paths = append(paths, path)
		}
		errs := requireValidation(t, r, paths...)
		for path, problem := range c.problems {
			if problem != "" {
				requireProblem(t, errs, path, problem)
			}
		}
		require.Equal(t, 1, r.Statements, "%s: refused before the transaction, the credential only", c.name)
		require.Equal(t, before, read(), "%s: nothing written", c.name)
	}
}

// What depends on the time or on the stored row is still checked inside
// the transaction, and reported with the input's other problems at once.
func TestProblemsThatNeedTheWriteAreReportedWithTheOthers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	account := "/v1/accounts/" + id(a)

	// A date of birth against the write's time (checked first thing in
	// the transaction, before its first statement).
	r := f.sk.Post(account+"/beneficial_owners", map[string]any{"first_name": "Ada", "last_name": "Lovelace",
		"email": "nope", "roles": []any{"owner"}, "dob": "2999-01-01"})
	errs := requireValidation(t, r, "email", "dob")
	requireProblem(t, errs, "dob", "must not be in the future")

	// A profile against the account's type.
	r = f.sk.Patch(account, map[string]any{"external_id": strings.Repeat("x", 256),
		"profile": map[string]any{"business": map[string]any{"legal_business_name": "Acme"}}})
	errs = requireValidation(t, r, "external_id", "profile.business")
	requireProblem(t, errs, "profile.business", "is not allowed for an individual account")
	require.Greater(t, r.Statements, 1, "checked on the locked account")

	// A phase's pricing member against its stored pricing type, and an id
	// that may or may not name a phase of the product.
	product := f.sk.CreateProduct(testenv.Product())
	phases := "/v1/products/" + product.ID.String() + "/phases"
	static := f.sk.CreatePhase(product.ID.String(), testenv.StaticPhase(0, 500, 1)).ID.String()
	r = f.sk.Patch(phases+"/"+static, map[string]any{"name": strings.Repeat("x", 101), "discount_percentage": 5})
	errs = requireValidation(t, r, "name", "discount_percentage")
	requireProblem(t, errs, "discount_percentage", "is only allowed for relative pricing")
	require.Greater(t, r.Statements, 1, "checked on the locked product's phase")
	r = f.sk.Patch(phases+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": static, "discount_percentage": 5}, map[string]any{"id": uuid.NewString()}}})
	errs = requireValidation(t, r, "phases.0.discount_percentage", "phases.1.id")
	requireProblem(t, errs, "phases.1.id", "is not a phase of this product")
	require.Greater(t, r.Statements, 1, "checked on the locked product's phases")
}

// tooManyPhaseEntries is a bulk update one entry past its bound, each
// entry a valid change of phase id.
func tooManyPhaseEntries(id string) []any {
	entries := make([]any, models.MaxBulkPhases+1)
	for i := range entries {
		entries[i] = map[string]any{"id": id, "name": "Trial"}
	}
	return entries
}
