package payments

import (
	"context"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/bank"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// BankLinks is the bank-linking family: Connect.
type BankLinks struct{ svc *Service }

// Connect creates a bank payment method from a bank-linking token
// (POST /v1/payment_methods/connect_plaid, as the real service's SDK calls
// it). The sandbox's token `sandbox-token-<routing>-<account>` links that
// account (API-DECISIONS §6); production needs a bank-linking provider,
// and none ships: refused before the write.
func (bl *BankLinks) Connect(ctx context.Context, in *models.ConnectBankInput) (*models.PaymentMethod, error) {
	s := bl.svc
	if err := refusePublicAttach(ctx, in.Customer, in.Account); err != nil {
		return nil, err
	}
	spec := op.Spec{Name: "payment_method.connect_bank", Allow: creators, Params: in, Provider: "bank-linking"}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.PaymentMethod, error) {
		var f apierr.Fields
		to := owner{customer: in.Customer, account: in.Account}
		if w.P.Kind == auth.OnboardingSession {
			acct := w.P.AccountID.String()
			to = owner{account: &acct}
		}
		switch {
		case to.customer == nil && to.account == nil:
			f.Add("account", "a customer or an account must be specified")
		case to.customer != nil && to.account != nil:
			f.Add("account", "exactly one of customer or account must be specified")
		}
		accountType := models.BankAccountChecking
		if in.Subtype != nil {
			accountType = models.BankAccountType(strings.ToLower(*in.Subtype))
			if accountType != models.BankAccountChecking && accountType != models.BankAccountSavings {
				f.Add("subtype", "must be one of: checking, savings")
			}
		}
		models.CheckText(&f, "institution_name", in.InstitutionName, 200, false)
		models.CheckText(&f, "account_id", in.BankAccountID, 200, false)
		var routing, account string
		if models.CheckText(&f, "public_token", in.PublicToken, 500, true) {
			var ok bool
			if routing, account, ok = bank.ParseSandboxToken(*in.PublicToken); !ok {
				f.Add("public_token", "is not a sandbox bank-linking token (sandbox-token-<routing>-<account>)")
			}
		}
		now := w.Now()
		pm := &models.PaymentMethod{ID: ids.New(now), Status: models.PaymentMethodActive,
			Created: models.At(now), Updated: models.At(now)}
		pm.Livemode = w.P.Scope.Livemode
		var value string
		if f.Empty() {
			value = fillACH(&f, pm, routing, account, accountType, in.InstitutionName, "public_token")
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		if err := s.insertMethod(ctx, w, pm, value, to); err != nil {
			return nil, err
		}
		return pm, nil
	})
}
