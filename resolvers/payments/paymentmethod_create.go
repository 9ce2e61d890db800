package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/bank"
	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// creators may create payment methods (spec doc 2 §4.3): the secret key,
// the publishable key and an onboarding session's secret (onto its own
// account).
var creators = []auth.Kind{auth.SecretKey, auth.PublishableKey, auth.OnboardingSession}

// Messages of the test-card rule (API-DECISIONS §6).
const (
	msgNotTestCard = "Card submitted is not a test card"
	msgTestCard    = "Card submitted is a test card; production keys accept only real cards"
)

// Create stores a card, a bank account or a wallet credential. The raw
// card number and CVC are validated, fingerprinted and dropped: only the
// brand, last four digits, expiry and a keyed fingerprint are kept.
// The input is validated inside the write, at its time (a card's expiry),
// and before production's refusal (Store): production keys are still told
// that a test card or a test bank account is not accepted (API-DECISIONS
// §6), so the provider is not a gate of the Spec here.
func (pms *PaymentMethods) Create(ctx context.Context, in *models.CreatePaymentMethodInput) (*models.PaymentMethod, error) {
	s := pms.svc
	if err := refusePublicAttach(ctx, in.Customer, in.Account); err != nil {
		return nil, err
	}
	spec := op.Spec{Name: "payment_method.create", Allow: creators, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.PaymentMethod, error) {
		if target := cardTarget(w, in); target != "" {
			// A card may complete the account's requirements: lock the
			// account before the write's time is read.
			if err := s.accounts.LockAccountForCards(ctx, w, target); err != nil {
				return nil, err
			}
		}
		var f apierr.Fields
		d := pms.Draft(&f, in, w.P.Scope.Livemode, w.Now())
		if in.Customer != nil && in.Account != nil {
			f.Add("customer", "cannot be given with account")
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		to := Owner{Customer: in.Customer, Account: in.Account}
		if w.P.Kind == auth.OnboardingSession {
			// An onboarding session provisions onto its own account.
			acct := w.P.AccountID.String()
			to = Owner{Account: &acct}
		}
		return pms.Store(ctx, w, d, to)
	})
}

// Draft is a payment method validated from its input, not stored yet.
type Draft struct {
	pm      *models.PaymentMethod
	billing *models.AddressInput
	secret  string // what the fingerprint is made of
}

// Draft is the one validation path of payment methods (the
// card and bank rules, the test-card rule, the billing address): it
// reports every problem of in into f and returns what would be stored.
// Other flows that take a card inline (a charge intent's
// payment_method_data) call it with a view of their own fields
// (apierr.Fields.Under), then Store.
func (pms *PaymentMethods) Draft(f *apierr.Fields, in *models.CreatePaymentMethodInput, livemode bool, now time.Time) *Draft {
	s := pms.svc
	pm := &models.PaymentMethod{ID: ids.New(now), Status: models.PaymentMethodActive,
		Created: models.At(now), Updated: models.At(now)}
	pm.Livemode = livemode
	d := &Draft{pm: pm, billing: in.Billing}
	switch {
	case in.Type == nil:
		f.Add("type", "is required")
	case *in.Type == models.PaymentMethodCard && in.Wallet != nil:
		s.walletCard(f, in, pm, now)
	case *in.Type == models.PaymentMethodCard:
		d.secret = s.card(f, in, pm, now)
	case *in.Type == models.PaymentMethodACH:
		d.secret = s.ach(f, in, pm)
	default:
		f.Add("type", "must be one of: card, ach")
	}
	if in.Billing != nil {
		models.ValidateAddressInput(f, in.Billing, "billing")
	}
	return d
}

// Owner is whom a new payment method is attached to: a customer or an
// account (ids as the client sent them), or nobody.
type Owner struct {
	Customer, Account *string
}

// Store stores a valid draft inside the caller's write, attached to to,
// and announces payment_method.created. Production refuses it (no card
// processor, bank or wallet provider ships), after the input's own
// rules.
func (pms *PaymentMethods) Store(ctx context.Context, w *op.W, d *Draft, to Owner) (*models.PaymentMethod, error) {
	s := pms.svc
	pm := d.pm
	if err := s.needsProvider(w.P, pm); err != nil {
		return nil, err
	}
	if d.billing != nil {
		pm.Billing = models.AddressFrom(d.billing, nil, models.AddressBilling, ids.New(w.Now()), pm.Livemode)
	}
	if err := s.insertMethod(ctx, w, pm, d.secret, owner{customer: to.Customer, account: to.Account}); err != nil {
		return nil, err
	}
	if err := s.cardsChanged(ctx, w, cardAccountsMoved(nil, pm), pm); err != nil {
		return nil, err
	}
	return pm, nil
}

// cardTarget is the account a card being created would be attached to
// ("" for anything else): the onboarding secret's own, or the account
// named.
func cardTarget(w *op.W, in *models.CreatePaymentMethodInput) string {
	if in.Type == nil || *in.Type != models.PaymentMethodCard {
		return ""
	}
	if w.P.Kind == auth.OnboardingSession {
		return w.P.AccountID.String()
	}
	if in.Account != nil {
		return *in.Account
	}
	return ""
}

// card validates a card and fills pm with what is kept of it. The number
// must be a test card in the sandbox, and must not be one in production.
func (s *Service) card(f *apierr.Fields, in *models.CreatePaymentMethodInput, pm *models.PaymentMethod, now time.Time) string {
	pm.Type = models.PaymentMethodCard
	var digits, brand string
	if models.CheckText(f, "card_number", in.CardNumber, 32, true) {
		digits = card.Normalize(*in.CardNumber)
		brand = card.Brand(digits)
		if !card.ValidNumber(digits) {
			f.Add("card_number", "is not a valid card number")
			digits = ""
		}
	}
	var exp card.Expiry
	expOK := true
	switch {
	case in.ExpMonth == nil:
		f.Add("exp_month", "is required")
		expOK = false
	case in.ExpMonth != nil && (*in.ExpMonth < 1 || *in.ExpMonth > 12):
		f.Add("exp_month", "must be from 1 to 12")
		expOK = false
	}
	if in.ExpYear == nil {
		f.Add("exp_year", "is required")
		expOK = false
	}
	if expOK {
		var ok bool
		exp, ok = card.ParseExpiry(int(*in.ExpMonth), int(*in.ExpYear))
		switch {
		case !ok:
			f.Add("exp_year", "must be the year's last two digits or the full year")
		case exp.Expired(now):
			f.Add("exp_year", "the card has expired")
		case exp.TooFar(now):
			f.Add("exp_year", "is too far in the future")
		}
	}
	if models.CheckText(f, "cvc", in.CVC, 8, true) && brand != "" && !card.ValidCVC(*in.CVC, brand) {
		f.Add("cvc", "is not a valid security code for this card")
	}
	if digits == "" {
		return ""
	}
	test, isTest := card.LookupTestCard(digits)
	switch {
	case !pm.Livemode && !isTest:
		f.Add("card_number", msgNotTestCard)
		return ""
	case pm.Livemode && isTest:
		f.Add("card_number", msgTestCard)
		return ""
	}
	funding := test.Funding
	if funding == "" {
		funding = card.Credit
	}
	month, year := fmt.Sprintf("%02d", exp.Month), fmt.Sprintf("%d", exp.Year)
	details := &models.CardDetails{Brand: brand, LastFour: digits[len(digits)-4:], ExpMonth: &month, ExpYear: &year,
		Issuer: sandboxIssuer(pm.Livemode), Currency: strPtr("usd"), Segment: strPtr("consumer"), Type: &funding}
	if funding == card.Debit {
		details.InstantAvailable = true
	} else {
		details.InstantUnavailableReason, details.InstantSteerTo = strPtr("card_not_debit"), strPtr("bank_account")
	}
	pm.Card = details
	if test.Outcome != "" {
		pm.SandboxOutcome = strPtr(test.Outcome)
	}
	return "card|" + digits
}

// walletCard issues the single-use card a wallet credential stands for.
// The sandbox issues a deterministic Visa credential; production needs a
// wallet provider. Like a wallet's device account number, the credential
// has an expiry of its own, not the underlying card's: this month,
// walletCredentialYears ahead (the spec types exp_month and exp_year as
// strings, and the SDKs read them as such).
func (s *Service) walletCard(f *apierr.Fields, in *models.CreatePaymentMethodInput, pm *models.PaymentMethod, now time.Time) {
	pm.Type, pm.SingleUse = models.PaymentMethodCard, true
	var kind models.WalletType
	if in.Wallet.Type != nil {
		kind = *in.Wallet.Type
	}
	if kind != models.WalletApplePay && kind != models.WalletGooglePay {
		f.Add("_wallet.type", "must be one of: apple_pay, google_pay")
		return
	}
	if in.CardNumber != nil {
		f.Add("card_number", "cannot be given with _wallet")
	}
	month, year := fmt.Sprintf("%02d", int(now.UTC().Month())), fmt.Sprintf("%d", now.UTC().Year()+walletCredentialYears)
	pm.Card = &models.CardDetails{Brand: card.Visa, LastFour: "4242", ExpMonth: &month, ExpYear: &year,
		Issuer: sandboxIssuer(pm.Livemode), Currency: strPtr("usd"), Segment: strPtr("consumer"), Type: strPtr(card.Credit),
		InstantUnavailableReason: strPtr("card_not_debit"), InstantSteerTo: strPtr("bank_account"),
		Wallet: &models.WalletDetails{Type: kind, DynamicLast4: strPtr("4242"), SingleUse: true}}
}

// walletCredentialYears is how long a sandbox wallet credential is valid.
const walletCredentialYears = 3

// sandboxIssuer is the issuer of a sandbox test card: the sandbox's own
// test bank, which issues every test card. Production cards would carry the
// issuer a BIN lookup names; none is configured, so they carry none.
func sandboxIssuer(livemode bool) *string {
	if livemode {
		return nil
	}
	return strPtr(bank.TestBankName)
}

// ach validates a bank account and fills pm with what is kept of it.
func (s *Service) ach(f *apierr.Fields, in *models.CreatePaymentMethodInput, pm *models.PaymentMethod) string {
	pm.Type = models.PaymentMethodACH
	routing, account := "", ""
	if models.CheckText(f, "routing_number", in.RoutingNumber, 32, true) {
		if routing = strings.TrimSpace(*in.RoutingNumber); !bank.ValidRouting(routing) {
			f.Add("routing_number", "is not a valid routing number")
		}
	}
	if models.CheckText(f, "account_number", in.AccountNumber, 32, true) {
		if account = strings.TrimSpace(*in.AccountNumber); !bank.ValidAccountNumber(account) {
			f.Add("account_number", "must be 4 to 17 digits")
		}
	}
	if in.AccountType == nil {
		f.Add("account_type", "is required")
	} else if *in.AccountType != models.BankAccountChecking && *in.AccountType != models.BankAccountSavings {
		f.Add("account_type", "must be one of: checking, savings")
	}
	if f.Has("routing_number") || f.Has("account_number") || f.Has("account_type") {
		return ""
	}
	return fillACH(f, pm, routing, account, *in.AccountType, nil, "account_number")
}

// fillACH keeps what is stored of a valid bank account; the test bank's
// accounts work only in the sandbox.
func fillACH(f *apierr.Fields, pm *models.PaymentMethod, routing, account string, accountType models.BankAccountType, bankName *string, path string) string {
	pm.Type = models.PaymentMethodACH
	outcome, isTest := bank.TestAccount(routing, account)
	if pm.Livemode && routing == bank.TestRouting {
		f.Add(path, "is a sandbox test account; production keys accept only real accounts")
		return ""
	}
	if bankName == nil && routing == bank.TestRouting {
		bankName = strPtr(bank.TestBankName)
	}
	pm.ACH = &models.ACHDetails{BankName: bankName, RoutingNumber: &routing, LastFour: account[len(account)-4:],
		AccountType: accountType}
	if isTest && outcome != "" {
		pm.SandboxOutcome = strPtr(outcome)
	}
	return "ach|" + routing + "|" + account
}

// needsProvider refuses, in production, what only a real card processor,
// bank or wallet could take (API-DECISIONS §1): none ships.
func (s *Service) needsProvider(p *auth.Principal, pm *models.PaymentMethod) error {
	if !p.Scope.Livemode {
		return nil
	}
	return apierr.Unavailable(apierr.CodeProviderNotConfigured,
		"Production payment methods need a card processor, bank or wallet provider, and none is configured", 0, nil)
}

// insertMethod records a new payment method, whichever way it was made
// (POST /v1/payment_methods, a bank link): fingerprinted by its secret
// value (fingerprint), attached to its owner, inserted, and announced as
// payment_method.created.
func (s *Service) insertMethod(ctx context.Context, w *op.W, pm *models.PaymentMethod, secret string, to owner) error {
	if err := s.fingerprint(ctx, pm, secret); err != nil {
		return err
	}
	if err := attachTo(ctx, w, pm, to); err != nil {
		return err
	}
	if _, err := w.Tx.Insert(pm).Exec(ctx); err != nil {
		return err
	}
	if err := w.EmitObject(models.EventPaymentMethodCreated, pm.ID, pm); err != nil {
		return err
	}
	return nil
}

// fingerprint keys the fingerprint of a number with the server secret
// (HMAC-SHA256), so that the stored value reveals nothing of the number
// yet the same card always has the same fingerprint.
func (s *Service) fingerprint(ctx context.Context, pm *models.PaymentMethod, value string) error {
	if value == "" {
		return nil
	}
	secret, err := s.Secret.Get(ctx)
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("payment_method|" + value))
	fp := hex.EncodeToString(mac.Sum(nil))
	pm.Fingerprint = &fp
	return nil
}

func strPtr(s string) *string { return &s }
