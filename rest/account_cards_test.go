package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// cardHolder is an account whose card capabilities wait only for a card
// (its terms are accepted).
func cardHolder(t *testing.T, c *testenv.Client, caps ...string) map[string]any {
	t.Helper()
	return c.CreateAccount(testenv.Individual().WithCapabilities(caps...).WithTermsOfService(testenv.TermsSpec{Token: "tos"}))
}

func stepOf(account map[string]any, key string) map[string]any {
	for _, s := range account["steps"].([]any) {
		if m := s.(map[string]any); m["key"] == key {
			return m
		}
	}
	return nil
}

func requestCapabilities(t *testing.T, c *testenv.Client, accountID string, names ...string) map[string]any {
	t.Helper()
	r := c.Post("/v1/accounts/"+accountID+"/capabilities", map[string]any{"capabilities": names})
	require.Contains(t, []int{http.StatusOK, http.StatusCreated}, r.Status, string(r.Body))
	return c.Get("/v1/accounts/" + accountID).JSON()
}

func TestAnAccountCardActivatesTheCardCapabilities(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := cardHolder(t, f.sk, "card_send", "kyc")
	for _, name := range []string{"card_verification", "card_send"} {
		require.Equal(t, []any{"payment_method.card"}, capByName(a["capabilities"], name)["currently_due"], name)
	}
	require.Equal(t, "pending", stepOf(a, "payment_method")["status"])

	// A card of another account, a customer's card, a bank account of
	// this one: nothing moves.
	other := cardHolder(t, f.sk, "card_send")
	f.sk.CreateAccountCard(id(other), testenv.Visa)
	cu := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateCard(id(cu), testenv.Visa)
	r := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "account": id(a), "account_number": "000123456789",
		"routing_number": "110000000", "account_type": "checking"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "pending", capByName(f.sk.Get("/v1/accounts/" + id(a)).JSON()["capabilities"], "card_send")["status"])

	card := f.sk.CreateAccountCard(id(a), testenv.Visa)
	got := f.sk.Get("/v1/accounts/" + id(a)).JSON()
	statuses := capStatuses(got["capabilities"])
	require.Equal(t, "active", statuses["card_verification"])
	require.Equal(t, "active", statuses["card_send"])
	require.Equal(t, "pending", statuses["kyc"], "kyc needs no card")
	require.Equal(t, "active", got["status"])
	require.Equal(t, "completed", stepOf(got, "payment_method")["status"])

	var types []string
	for _, e := range listEvents(t, f.sk, "") {
		if e.object()["id"] == id(card) || e.object()["id"] == id(a) || e.object()["account_id"] == id(a) {
			types = append(types, e.Type)
		}
	}
	require.Equal(t, []string{"account.created", "payment_method.created", "payment_method.created",
		"capability.activated", "capability.activated", "account.activated", "account.updated"}, types,
		"the card, then what it completed (the bank account's creation before it changed nothing)")

	// Detached: what is active stays active (a capability never returns to
	// pending by itself, spec doc 1 §3), so nothing rendered changes and
	// nothing is announced; a capability requested now asks for a card.
	before := len(listEvents(t, f.sk, ""))
	r = f.sk.Post("/v1/payment_methods/"+id(card)+"/detach", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	evs := listEvents(t, f.sk, "")
	require.Len(t, evs, before+1)
	require.Equal(t, "payment_method.detached", evs[len(evs)-1].Type)
	got = f.sk.Get("/v1/accounts/" + id(a)).JSON()
	statuses = capStatuses(got["capabilities"])
	require.Equal(t, "active", statuses["card_verification"])
	require.Equal(t, "active", statuses["card_send"])
	require.Empty(t, capByName(got["capabilities"], "card_send")["currently_due"])
	require.Equal(t, "active", got["status"], "losing a requirement never demotes the account")
	require.Zero(t, countType(evs, "capability.disabled"))

	got = requestCapabilities(t, f.sk, id(a), "card_receive")
	require.Equal(t, "pending", capByName(got["capabilities"], "card_receive")["status"])
	require.Equal(t, []any{"payment_method.card"}, capByName(got["capabilities"], "card_receive")["currently_due"])
	require.Equal(t, "pending", stepOf(got, "payment_method")["status"])
}

func TestCardAttachAndSecondCardsMoveTheRequirement(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := cardHolder(t, f.sk, "card_verification")

	// A card made without an owner, then attached to the account.
	r := f.sk.Post("/v1/payment_methods", testenv.CardBody("", testenv.VisaDebit))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	first := r.JSON()
	require.Equal(t, "pending", capByName(f.sk.Get("/v1/accounts/" + id(a)).JSON()["capabilities"], "card_verification")["status"])
	r = f.sk.Post("/v1/payment_methods/"+id(first)+"/attach", map[string]any{"account": id(a)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", capByName(f.sk.Get("/v1/accounts/" + id(a)).JSON()["capabilities"], "card_verification")["status"])

	// A second card, then the first detached: the second still stands, so
	// a capability requested now is met at once.
	second := f.sk.CreateAccountCard(id(a), testenv.Visa)
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(first)+"/detach", nil).Status)
	got := requestCapabilities(t, f.sk, id(a), "card_send")
	require.Equal(t, "active", capByName(got["capabilities"], "card_send")["status"])

	// The second detached too: a card is due again; a new one completes it.
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(second)+"/detach", nil).Status)
	got = requestCapabilities(t, f.sk, id(a), "card_receive")
	require.Equal(t, "pending", capByName(got["capabilities"], "card_receive")["status"])
	require.Equal(t, []any{"payment_method.card"}, capByName(got["capabilities"], "card_receive")["currently_due"])
	f.sk.CreateAccountCard(id(a), testenv.Visa)
	require.Equal(t, "active", capByName(f.sk.Get("/v1/accounts/" + id(a)).JSON()["capabilities"], "card_receive")["status"])

	// The holder's own onboarding secret adds a card: the same.
	b := cardHolder(t, f.sk, "card_verification")
	holder := f.sk.OnboardingHolder(id(b))
	r = holder.Post("/v1/payment_methods", testenv.CardBody("", testenv.Visa))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, id(b), r.JSON()["account_id"])
	require.Equal(t, "active", capByName(f.sk.Get("/v1/accounts/" + id(b)).JSON()["capabilities"], "card_verification")["status"])
}

// Cards added to one account at once: the account's row lock serializes
// them, so each capability activates once.
func TestConcurrentCardsActivateOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := cardHolder(t, f.sk, "card_send")
	const n = 5
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := testenv.CardBody("", testenv.Visa)
			body["account"] = id(a)
			statuses[i] = f.sk.Post("/v1/payment_methods", body).Status
		}()
	}
	wg.Wait()
	for _, s := range statuses {
		require.Equal(t, http.StatusCreated, s)
	}
	evs := listEvents(t, f.sk, "")
	require.Equal(t, 2, countType(evs, "capability.activated"), "card_verification and card_send, once each")
	require.Equal(t, 1, countType(evs, "account.activated"))
}

// The card requirement is kept with the account: reading accounts costs
// the same statements however many accounts hold cards.
func TestAccountsWithCardsReadInConstantStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	mk := func(n int) {
		for range n {
			a := cardHolder(t, f.sk, "card_send", "card_receive")
			f.sk.CreateAccountCard(id(a), testenv.Visa)
		}
	}
	mk(1)
	one := f.sk.Get("/v1/accounts?per_page=100")
	mk(6)
	many := f.sk.Get("/v1/accounts?per_page=100")
	require.Equal(t, http.StatusOK, many.Status)
	require.Len(t, many.JSON()["data"], 7)
	require.Equal(t, one.Statements, many.Statements)
	for _, a := range many.JSON()["data"].([]any) {
		require.Equal(t, "active", capByName(a.(map[string]any)["capabilities"], "card_send")["status"])
	}
}
