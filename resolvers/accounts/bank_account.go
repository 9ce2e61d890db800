package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// BankAccounts is the bank account family of the area: linking (Create),
// reads, and the link token that opens the bank-linking flow.
type BankAccounts struct {
	// OfAccounts reads the newest RecentChildren bank accounts of many
	// accounts in one statement (GraphQL's Account.bankAccounts).
	OfAccounts op.Batch[[]*models.BankAccount]
	svc        *Service
}

// bankTable reads the bank accounts linked to the merchant's accounts and
// customers (spec doc 1 §4.9); an onboarding secret sees its own
// account's only.
var bankTable = &op.Table[models.BankAccount]{Resource: "bank_account", Allow: bankActors,
	Visible: func(q *bun.SelectQuery, p *auth.Principal) *bun.SelectQuery {
		return ownAccountOnly(q, p)
	}}

func newBankAccounts(s *Service) *BankAccounts {
	return &BankAccounts{svc: s, OfAccounts: (&op.Children[models.BankAccount]{Table: bankTable,
		Parent: "account", Column: "account_id", Limit: RecentChildren, Sees: (*auth.Principal).SeesAccount}).Bind(s.Kit)}
}

// bankActors may link and read bank accounts: the secret key, and an
// onboarding secret for its own account only (spec doc 1 §4.9).
var bankActors = []auth.Kind{auth.SecretKey, auth.OnboardingSession}

// Create links a bank account through the processor's token
// (spec doc 1 §4.9) to its owner: the account or the customer named
// (secret key; a customer's link is bank_account_customer.go), or the
// onboarding secret's own account (account_id and customer_id ignored).
// The sandbox processor resolves `sandbox-token-<routing>-<account>` and
// the account's link token (docs/sandbox.md). The link satisfies the
// bank_account requirement in the same write. Linking a bank account its
// owner already has answers that one (200): the owner's row lock
// serializes links and a unique index on the fingerprint keeps one.
func (bs *BankAccounts) Create(ctx context.Context, in *models.CreateBankAccountInput) (*models.BankAccount, error) {
	s := bs.svc
	spec := op.Spec{Name: "bank_account.create", Allow: bankActors, Params: in, Provider: "bank-linking",
		Check: func() error {
			if err := in.Validate(auth.FromContext(ctx).Kind != auth.OnboardingSession); err != nil {
				return err
			}
			if *in.Processor != verification.BankProcessor {
				return apierr.FieldError("processor", "must name a bank-linking processor this server has: sandbox")
			}
			return nil
		}}
	owner := sessionAccount(ctx)
	if owner == "" && in.CustomerID != nil {
		return bs.createForCustomer(ctx, spec, in)
	}
	if owner == "" && in.AccountID != nil {
		owner = *in.AccountID
	}
	var ba *models.BankAccount
	out, err := writeAccount(ctx, s, spec, owner, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		var err error
		ba, err = bs.link(ctx, aw.W, in, a.ID.String(), "account_id", func(ba *models.BankAccount) { ba.AccountID = &a.ID })
		if err != nil || ba.Existing {
			return err
		}
		a.Verification.BankAccountLinked = true
		return nil
	}, func(*accountWrite) *models.BankAccount { return ba })
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing && strings.HasPrefix(e.Message, "No such account") {
		e.Param = "account_id"
	}
	return out, err
}

// link exchanges the processor's token (a link token works for the
// account ownerID only) and answers the bank account of the owner —
// column ownerColumn, set on a new row by own — with that fingerprint, or
// links a new one. The caller holds the owner's row lock.
func (bs *BankAccounts) link(ctx context.Context, w *op.W, in *models.CreateBankAccountInput, ownerID, ownerColumn string,
	own func(*models.BankAccount)) (*models.BankAccount, error) {
	linked, problem := verification.ExchangeToken(*in.ProcessorToken, ownerID)
	if problem != "" {
		return nil, apierr.FieldError("processor_token", problem)
	}
	secret, err := bs.svc.Secret.Get(ctx)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("bank_account:" + linked.Routing + ":" + linked.Number))
	fingerprint := mac.Sum(nil)
	ba := new(models.BankAccount)
	err = w.Tx.Select(ba).Where("ba.? = ?", bun.Ident(ownerColumn), ownerID).Where("ba.fingerprint = ?", fingerprint).Scan(ctx)
	switch {
	case err == nil:
		ba.Existing = true
		return ba, nil
	case !store.IsNoRows(err):
		return nil, err
	}
	now := w.Now()
	bank := linked.BankName
	ba = &models.BankAccount{ID: ids.New(now), RoutingNumber: linked.Routing, AccountNumberLast4: linked.Number[len(linked.Number)-4:],
		AccountType: models.BankAccountType(linked.AccountType), BankName: &bank, ProcessorName: *in.Processor, Status: models.BankAccountVerified,
		Fingerprint: fingerprint, Created: models.At(now), Updated: models.At(now)}
	own(ba)
	if _, err := w.Tx.Insert(ba).Exec(ctx); err != nil {
		return nil, err
	}
	return ba, nil
}

// Get answers one bank account of the merchant's accounts and customers; an onboarding
// secret sees only its account's (anything else is 404).
func (bs *BankAccounts) Get(ctx context.Context, id string) (*models.BankAccount, error) {
	return bankTable.Get(ctx, bs.svc.Kit, id)
}

// ByIDs reads bank accounts by id (GraphQL's loader and node).
func (bs *BankAccounts) ByIDs(ctx context.Context, idList []string) ([]*models.BankAccount, []error) {
	return bankTable.ByIDs(ctx, bs.svc.Kit, idList)
}

// LinkToken answers the token that opens the bank-linking flow for
// the account (the real service's clients call it): in the sandbox,
// `link-sandbox-<account id>`, which the sandbox processor accepts as a
// processor token for that account.
func (bs *BankAccounts) LinkToken(ctx context.Context, accountID string) (*models.LinkToken, error) {
	s := bs.svc
	p, err := auth.Require(ctx, bankActors...)
	if err != nil {
		return nil, err
	}
	a, err := findAccount(ctx, s.DB.Tenant(p.Scope), p, accountID)
	if err != nil {
		return nil, err
	}
	if err := requireSandboxProvider(p, "bank-linking"); err != nil {
		return nil, err
	}
	return &models.LinkToken{LinkToken: verification.LinkToken(a.ID.String())}, nil
}
