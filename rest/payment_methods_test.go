package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var paymentMethodKeys = sorted("id", "object", "type", "status", "customer_id", "customer", "account_id", "billing",
	"created", "updated", "livemode")

var cardKeys = sorted("brand", "last_four", "exp_month", "exp_year", "issuer", "currency", "segment", "type",
	"instant_available", "instant_unavailable_reason", "instant_steer_to", "wallet")

func TestCreateCardPaymentMethod(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	body := merge(testenv.CardBody(id(c), "4242 4242 4242 4242"), map[string]any{"exp_month": "04", "exp_year": "2030",
		"billing": map[string]any{"line_1": "1 Main St", "postal_code": "78701", "country": "US"}})
	r := f.sk.Post("/v1/payment_methods", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pm := r.JSON()
	require.Equal(t, sorted(append(append([]string{}, paymentMethodKeys...), "card")...), keys(pm))
	require.Equal(t, "payment_method", pm["object"])
	require.Equal(t, "card", pm["type"])
	require.Equal(t, "active", pm["status"])
	require.Equal(t, id(c), pm["customer_id"])
	require.Nil(t, pm["account_id"])
	require.Equal(t, "billing", pm["billing"].(map[string]any)["type"])
	card := pm["card"].(map[string]any)
	require.Equal(t, cardKeys, keys(card))
	require.Equal(t, "visa", card["brand"])
	require.Equal(t, "4242", card["last_four"])
	require.Equal(t, "04", card["exp_month"])
	require.Equal(t, "2030", card["exp_year"])
	require.Equal(t, "credit", card["type"])
	require.Equal(t, false, card["instant_available"])
	require.Equal(t, "card_not_debit", card["instant_unavailable_reason"])
	require.Equal(t, "bank_account", card["instant_steer_to"])
	require.Nil(t, card["wallet"])
	require.NotContains(t, string(r.Body), "4242424242424242")
	require.NotContains(t, string(r.Body), "fingerprint")

	require.Equal(t, pm, f.sk.Get("/v1/payment_methods/"+id(pm)).JSON())
	evs := listEvents(t, f.sk, "payment_method.created")
	require.Len(t, evs, 1)
	require.Equal(t, pm, evs[0].object())

	// A debit card can take instant payouts.
	debit := f.sk.CreateCard("", testenv.VisaDebit).Card
	require.Equal(t, true, debit.InstantAvailable)
	require.Nil(t, debit.InstantUnavailableReason)
	require.Equal(t, "debit", *debit.Type)

	// The customer renders its card.
	got := f.sk.Get("/v1/customers/" + id(c)).JSON()
	require.Equal(t, []any{pm}, got["payment_methods"])
}

func TestCardValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	errs := requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "card",
		"card_number": "4242424242424241", "exp_month": 13, "exp_year": 30, "cvc": "12"}),
		"card_number", "exp_month", "cvc")
	requireProblem(t, errs, "card_number", "is not a valid card number")
	errs = requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "card",
		"card_number": testenv.Visa, "exp_month": 1, "exp_year": 20, "cvc": "123"}), "exp_year")
	requireProblem(t, errs, "exp_year", "the card has expired")
	requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "card"}),
		"card_number", "exp_month", "exp_year", "cvc")
	requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{}), "type")
	requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "bitcoin"}), "type")
	// Amex takes a four-digit CVC.
	requireValidation(t, f.sk.Post("/v1/payment_methods", merge(testenv.CardBody("", "378282246310005"), map[string]any{"cvc": "123"})), "cvc")
	requireError(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "card", "exp_month": "april"}),
		http.StatusBadRequest, "parameter_invalid", "exp_month")
	// customer and account are mutually exclusive; account_id is ignored.
	c := f.sk.CreateCustomer(testenv.Customer())
	a := f.sk.CreateAccount(testenv.Individual())
	requireValidation(t, f.sk.Post("/v1/payment_methods", merge(testenv.CardBody(id(c), testenv.Visa),
		map[string]any{"account": id(a)})), "customer")
	r := f.sk.Post("/v1/payment_methods", merge(testenv.CardBody("", testenv.Visa), map[string]any{"account_id": id(a)}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["account_id"], "account_id is silently ignored on create")
	// Unknown owners are 404 naming the parameter.
	requireError(t, f.sk.Post("/v1/payment_methods", testenv.CardBody(uuid.NewString(), testenv.Visa)),
		http.StatusNotFound, "resource_missing", "customer")
	require.Empty(t, listEvents(t, f.sk, "payment_method.created")[1:], "refusals create nothing")
}

// TestSandboxTestCards is the card suite: every test card of API-DECISIONS
// §6 is accepted in the sandbox and refused in production with the
// documented error; a real card is refused in the sandbox.
func TestSandboxTestCards(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cards := map[string]string{
		"4242424242424242": "visa", "4000056655665556": "visa", "5555555555554444": "mastercard",
		"5200828282828210": "mastercard", "378282246310005": "amex", "6011111111111117": "discover",
		"4726840306461785": "visa", "4726840756845529": "visa", "4726849921107855": "visa",
		"4726843991344803": "visa", "4726846912498186": "visa", "4726843338079575": "visa",
		"4726848138487043": "visa", "4726848912206759": "visa", "4000000000000002": "visa",
		"4000000000009995": "visa", "4000000000000259": "visa", "4000000000003220": "visa",
		"4000008400001629": "visa", "4111110116638870": "visa",
	}
	debit := map[string]bool{"4000056655665556": true, "5200828282828210": true}
	for number, brand := range cards {
		r := f.sk.Post("/v1/payment_methods", testenv.CardBody("", number))
		require.Equal(t, http.StatusCreated, r.Status, "%s: %s", number, r.Body)
		card := r.JSON()["card"].(map[string]any)
		require.Equal(t, brand, card["brand"], number)
		require.Equal(t, number[len(number)-4:], card["last_four"], number)
		require.Equal(t, debit[number], card["instant_available"], number)

		errs := requireValidation(t, f.live.Post("/v1/payment_methods", testenv.CardBody("", number)), "card_number")
		requireProblem(t, errs, "card_number", "Card submitted is a test card; production keys accept only real cards")
	}
	// A real (non-test) card: refused in the sandbox, and in production no
	// card processor is configured.
	errs := requireValidation(t, f.sk.Post("/v1/payment_methods", testenv.CardBody("", "4012888888881881")), "card_number")
	requireProblem(t, errs, "card_number", "Card submitted is not a test card")
	requireError(t, f.live.Post("/v1/payment_methods", testenv.CardBody("", "4012888888881881")),
		http.StatusServiceUnavailable, "provider_not_configured", "")
	require.Len(t, listOf(t, f.live, "/v1/payment_methods"), 0)
}

func TestACHPaymentMethod(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	r := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "account": id(a),
		"routing_number": "110000000", "account_number": "000123456789", "account_type": "checking"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pm := r.JSON()
	require.Equal(t, sorted(append(append([]string{}, paymentMethodKeys...), "ach")...), keys(pm))
	require.Equal(t, map[string]any{"bank_name": "Sandbox Test Bank", "routing_number": "110000000", "last_four": "6789",
		"account_type": "checking"}, pm["ach"])
	require.Equal(t, id(a), pm["account_id"])
	require.NotContains(t, string(r.Body), "000123456789")

	errs := requireValidation(t, f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach",
		"routing_number": "110000001", "account_number": "12", "account_type": "money_market"}),
		"routing_number", "account_number", "account_type")
	requireProblem(t, errs, "routing_number", "is not a valid routing number")
	requireValidation(t, f.live.Post("/v1/payment_methods", map[string]any{"type": "ach",
		"routing_number": "110000000", "account_number": "000123456789", "account_type": "savings"}), "account_number")

	// The account's list.
	require.Equal(t, []string{id(pm)}, ids(listOf(t, f.sk, "/v1/accounts/"+id(a)+"/payment_methods")))
	requireError(t, f.sk.Get("/v1/accounts/"+uuid.NewString()+"/payment_methods"), http.StatusNotFound, "resource_missing", "id")
}

func TestAttachDetachAndUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	a := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateCard("", testenv.Visa)
	path := "/v1/payment_methods/" + id(pm)

	// PATCH needs an attached method.
	requireError(t, f.sk.Patch(path, map[string]any{"exp_month": 1}), http.StatusUnprocessableEntity, "invalid_state", "")

	// account_id is the documented error; exactly one of customer or account.
	e := requireValidation(t, f.sk.Post(path+"/attach", map[string]any{"account_id": id(a)}), "account_id")
	requireProblem(t, e, "account_id", "is not accepted: a customer or an account must be specified (send account)")
	requireValidation(t, f.sk.Post(path+"/attach", map[string]any{}), "customer")
	requireValidation(t, f.sk.Post(path+"/attach", map[string]any{"customer": id(c), "account": id(a)}), "customer")

	r := f.sk.Post(path+"/attach", map[string]any{"customer": id(c)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(c), r.JSON()["customer_id"])
	requireError(t, f.sk.Post(path+"/attach", map[string]any{"account": id(a)}), http.StatusUnprocessableEntity, "invalid_state", "")

	r = f.sk.Patch(path, map[string]any{"exp_month": 6, "exp_year": 31})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	card := r.JSON()["card"].(map[string]any)
	require.Equal(t, []any{"06", "2031"}, []any{card["exp_month"], card["exp_year"]})
	requireValidation(t, f.sk.Patch(path, map[string]any{"exp_year": 2020}), "exp_year")

	require.Equal(t, []string{id(pm)}, ids(listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods")))

	r = f.sk.Post(path+"/detach", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "detached", r.JSON()["status"])
	// Final: no re-attach, no update; detaching again changes nothing.
	requireError(t, f.sk.Post(path+"/attach", map[string]any{"customer": id(c)}), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Patch(path, map[string]any{"exp_month": 7}), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, http.StatusOK, f.sk.Post(path+"/detach", nil).Status)
	require.Empty(t, listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods"))

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"payment_method.created", "payment_method.attached", "payment_method.updated",
		"payment_method.detached"}, eventTypes(evs, id(pm)))

	// Attaching to a blocked customer blocks the method.
	f.sk.BlockCustomer(id(c))
	other := f.sk.CreateCard("", testenv.Visa)
	r = f.sk.Post("/v1/payment_methods/"+id(other)+"/attach", map[string]any{"customer": id(c)})
	require.Equal(t, "blocked", r.JSON()["status"])

	// Secret key only; tenancy.
	requireError(t, f.pk.Post(path+"/detach", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Get(path), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post("/v1/payment_methods/"+id(other)+"/attach", map[string]any{"customer": id(c)}),
		http.StatusNotFound, "resource_missing", "id")
}

func TestWalletsAreLeftOutOfLists(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	card := f.sk.CreateCard(id(c), testenv.Visa)
	// The wallet button creates it with the publishable key; the server
	// attaches it (spec doc 2 §4.8).
	r := f.pk.Post("/v1/payment_methods", map[string]any{"type": "card",
		"_wallet": map[string]any{"type": "apple_pay", "apple_pay": map[string]any{"requestId": "x"}}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	r = f.sk.Post("/v1/payment_methods/"+id(r.JSON())+"/attach", map[string]any{"customer": id(c)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	wallet := r.JSON()
	require.Equal(t, map[string]any{"type": "apple_pay", "dynamic_last4": "4242", "single_use": true, "consumed": false},
		wallet["card"].(map[string]any)["wallet"])

	require.Equal(t, []string{id(card)}, ids(listOf(t, f.sk, "/v1/payment_methods")))
	require.Equal(t, []string{id(wallet), id(card)}, ids(listOf(t, f.sk, "/v1/payment_methods?include_wallets=true")))
	require.Equal(t, []string{id(card)}, ids(listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods")))
	require.Equal(t, []string{id(wallet), id(card)}, ids(listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods?include_wallets=1")))
	require.Len(t, f.sk.Get("/v1/customers/" + id(c)).JSON()["payment_methods"], 1)
	requireValidation(t, f.pk.Post("/v1/payment_methods", map[string]any{"type": "card", "_wallet": map[string]any{"type": "paypal"}}), "_wallet.type")
	requireError(t, f.sk.Get("/v1/customers/"+uuid.NewString()+"/payment_methods"), http.StatusNotFound, "resource_missing", "id")
}

func TestCreatePaymentMethodWithSessionSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	other := f.sk.CreateAccount(testenv.Individual())
	// Onboarding sessions are minted by their own area; the secret is what
	// this operation accepts.
	var secret string
	scope := f.env.DB.Tenant(scopeOf(f))
	err := f.env.DB.Tx(context.Background(), scope.Scope(), func(ctx context.Context, tx *storeTenant) error {
		var err error
		secret, err = auth.IssueSessionSecret(ctx, tx, auth.OnboardingSession, uuid.New(), uuid.MustParse(id(a)),
			testenv.Start, 30*time.Minute)
		return err
	})
	require.NoError(t, err)
	sess := f.env.Client(secret)
	r := sess.Post("/v1/payment_methods", merge(testenv.CardBody("", testenv.Visa), map[string]any{"account": id(other)}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, id(a), r.JSON()["account_id"], "an onboarding session provisions onto its own account")
	// It may create, not read.
	requireError(t, sess.Get("/v1/payment_methods/"+id(r.JSON())), http.StatusForbidden, "forbidden", "")
}

func TestConnectBankWithSandboxToken(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	r := f.sk.Post("/v1/payment_methods/connect_plaid", map[string]any{"account": id(a),
		"public_token": "sandbox-token-110000000-000222222227", "account_id": "plaid-acct-1",
		"institution_name": "First Platypus Bank", "subtype": "savings"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pm := r.JSON()
	require.Equal(t, "ach", pm["type"])
	require.Equal(t, id(a), pm["account_id"])
	require.Equal(t, map[string]any{"bank_name": "First Platypus Bank", "routing_number": "110000000", "last_four": "2227",
		"account_type": "savings"}, pm["ach"])

	requireValidation(t, f.sk.Post("/v1/payment_methods/connect_plaid", map[string]any{"account": id(a),
		"public_token": "public-sandbox-123"}), "public_token")
	requireValidation(t, f.sk.Post("/v1/payment_methods/connect_plaid", map[string]any{
		"public_token": "sandbox-token-110000000-000123456789"}), "account")
	requireError(t, f.live.Post("/v1/payment_methods/connect_plaid", map[string]any{"account": id(a),
		"public_token": "sandbox-token-110000000-000123456789"}), http.StatusServiceUnavailable, "provider_not_configured", "")
}

// TestAttachRacingABlock: attaches racing a customer's block all end
// blocked, whichever commits first: the attach takes the customer's lock,
// so it either precedes the block (which then blocks it) or follows it
// (and sees the customer blocked).
func TestAttachRacingABlock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	const n = 8
	cards := make([]string, n)
	for i := range cards {
		cards[i] = id(f.sk.CreateCard("", testenv.Visa))
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == n/2 {
				require.Equal(t, http.StatusOK, f.sk.Post("/v1/customers/"+id(c)+"/block", nil).Status)
			}
			require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+cards[i]+"/attach", map[string]any{"customer": id(c)}).Status)
		}()
	}
	wg.Wait()
	methods := listOf(t, f.sk, "/v1/customers/"+id(c)+"/payment_methods?per_page=100")
	require.Len(t, methods, n)
	for _, m := range methods {
		require.Equal(t, "blocked", m["status"], "a method attached around a block is blocked")
	}
}
