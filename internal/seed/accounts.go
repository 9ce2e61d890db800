package seed

import "github.com/frame-oss/payments-server/models"

// holder is one account of the data set: who, with which KYC persona
// (docs/sandbox.md: the profile phone chooses the identity run's verdict),
// the capabilities requested, and how it ends.
type holder struct {
	first, last, email, phone string
	capabilities              string // a JSON array
	acceptTerms               bool
	// verify runs an identity verification and concludes it at once, as
	// its background job would: the persona decides the verdict.
	verify bool
	// cards are test cards attached to the account.
	cards []string
	then  func(s *seeder, id string) error
}

// The test cards the data set uses (docs/sandbox.md, "Charges").
const (
	cardVisa           = "4242424242424242"
	cardVisaDebit      = "4000056655665556"
	cardMastercard     = "5555555555554444"
	cardAmex           = "378282246310005"
	cardDisputed       = "4000000000000259"
	cardInsufficient   = "4000000000009995"
	cardRefundsFail    = "4000000000005126"
	cardGenericDecline = "4000000000000002"
	individualAccount  = `{"type": "individual", "capabilities": CAPS, "profile": {"individual": {
  "name": {"first_name": "FIRST", "last_name": "LAST"}, "email": "EMAIL",
  "phone": {"number": "PHONE", "country_code": "+1"}, "ssn": "123-45-6789", "birthdate": "1990-12-10",
  "address": {"line_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}}}TERMS}`
	acceptedTerms = `, "terms_of_service": {"token": "sample-data", "ip_address": "127.0.0.1"}`
)

// holders are the individual accounts, in order. With the business
// account below they cover every account status: active (Ada), pending
// (Grace: terms not accepted; Katherine: identity run failed; Dorothy: a
// manual review that never resolves in the sandbox), restricted and
// disabled.
var holders = []holder{
	{first: "Ada", last: "Lovelace", email: "ada@example.com", phone: "2001001695", acceptTerms: true, verify: true,
		capabilities: `["kyc", "card_verification", "card_send", "card_receive"]`,
		cards: []string{cardVisaDebit, cardVisa, cardMastercard, cardAmex, cardDisputed, cardInsufficient,
			cardRefundsFail, cardGenericDecline},
		then: (*seeder).payeeOf},
	{first: "Grace", last: "Hopper", email: "grace@example.com", phone: "5125550100",
		capabilities: `["kyc", "card_send"]`},
	{first: "Katherine", last: "Johnson", email: "katherine@example.com", phone: "7742345678", acceptTerms: true,
		verify: true, capabilities: `["kyc"]`},
	{first: "Dorothy", last: "Vaughan", email: "dorothy@example.com", phone: "2001001696", acceptTerms: true,
		verify: true, capabilities: `["kyc"]`},
	{first: "Charles", last: "Babbage", email: "charles@example.com", phone: "5125550101",
		capabilities: `["card_verification"]`, then: (*seeder).disable},
}

// restrictedBusiness is the business account the platform restricts.
const restrictedBusiness = `{"type": "business", "capabilities": ["kyb"], "profile": {"business": {
  "legal_business_name": "Analytical Engines LLC", "business_type": "llc", "ein": "12-3456789",
  "email": "ops@engines.example",
  "address": {"line_1": "2 Market St", "city": "Denver", "state": "CO", "postal_code": "80202", "country": "US"}}}}`

func (s *seeder) accounts() error {
	for _, h := range holders {
		terms := ""
		if h.acceptTerms {
			terms = acceptedTerms
		}
		a, err := s.svc.Accounts.Accounts.Create(s.ctx, body[models.CreateAccountInput](individualAccount,
			"CAPS", h.capabilities, "FIRST", h.first, "LAST", h.last, "EMAIL", h.email, "PHONE", h.phone, "TERMS", terms))
		if err != nil {
			return err
		}
		s.sum.Accounts++
		id := a.ID.String()
		for _, number := range h.cards {
			pm, err := s.card("account", id, number)
			if err != nil {
				return err
			}
			s.cards[number] = pm.ID.String()
		}
		if h.verify {
			if err := s.verify(id); err != nil {
				return err
			}
		}
		if h.then != nil {
			if err := h.then(s, id); err != nil {
				return err
			}
		}
	}
	b, err := s.svc.Accounts.Accounts.Create(s.ctx, body[models.CreateAccountInput](restrictedBusiness))
	if err != nil {
		return err
	}
	s.sum.Accounts++
	_, err = s.svc.Accounts.Accounts.Restrict(s.ctx, b.ID.String())
	return err
}

// card creates a test card of owner ("account" or "customer") id.
func (s *seeder) card(owner, id, number string) (*models.PaymentMethod, error) {
	pm, err := s.svc.Payments.PaymentMethods.Create(s.ctx, body[models.CreatePaymentMethodInput](
		`{"type": "card", "OWNER": "ID", "card_number": "NUMBER", "exp_month": 12, "exp_year": 2030, "cvc": "CVC"}`,
		"OWNER", owner, "ID", id, "NUMBER", number, "CVC", cvcOf(number)))
	if err != nil {
		return nil, err
	}
	s.sum.PaymentMethods++
	return pm, nil
}

// verify creates an identity verification run and concludes it at once,
// through the same operation its background job calls (the job, when a
// server works it, finds the run concluded and does nothing).
func (s *seeder) verify(accountID string) error {
	run, err := s.svc.Accounts.IdentityRuns.Create(s.ctx, accountID)
	if err != nil {
		return err
	}
	return s.svc.Accounts.IdentityRuns.Conclude(s.ctx, s.scope, run.ID)
}

// payeeOf makes accountID the account the charges and payouts are for,
// with its own payout agreement on the seed's plan (an account's agreement
// comes before the merchant's, so its payouts are priced the same on
// every merchant).
func (s *seeder) payeeOf(accountID string) error {
	s.payee = accountID
	_, err := s.svc.Money.Agreements.Create(s.ctx, body[models.CreateAgreementInput](
		`{"transfer_fee_plan_id": "PLAN", "category": "payout", "effective_date": "DATE", "status": "active",
		  "account_id": "ACCOUNT"}`, "PLAN", s.planID, "DATE", agreementsEffective, "ACCOUNT", accountID))
	return err
}

func (s *seeder) disable(accountID string) error {
	_, err := s.svc.Accounts.Accounts.Disable(s.ctx, accountID)
	return err
}

// cvcOf is a security code of the card's length: four digits for amex.
func cvcOf(number string) string {
	if number == cardAmex {
		return "1234"
	}
	return "123"
}
