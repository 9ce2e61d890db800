package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Confirm certifies the account's roster (spec doc 1 §4.2
// rule 4): it needs at least one person with the owner role, one with the
// controller role, and combined ownership of at most 100 percent; every
// unmet rule is reported at once. The certification is recorded with the
// request's IP address and user agent and satisfies
// beneficial_owners_collected; the roster stays editable, and each confirm
// stamps the certification again.
//
// Every person on the roster counts, invited ones included: the merchant
// named them. Confirms of one account are serialized by its row lock, so
// two at once both succeed, one after the other, and the later stamp
// stands.
func (ow *Owners) Confirm(ctx context.Context, accountID string) (*models.Account, error) {
	s := ow.svc
	spec := op.Spec{Name: "beneficial_owners.confirm", Allow: ownerWriters, Params: ownerParams{AccountID: accountID}}
	a, err := writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		var roster []*models.BeneficialOwner
		if err := aw.Tx.Select(&roster).Column("roles", "percent_ownership").
			Where("bo.account_id = ?", aw.Account.ID).Scan(ctx); err != nil {
			return err
		}
		if err := checkRoster(roster); err != nil {
			return err
		}
		info := httpx.Info(ctx)
		aw.Account.Verification.OwnersConfirmed = &models.Attestation{At: aw.Now(), IPAddress: info.RemoteIP, UserAgent: info.UserAgent}
		return nil
	}, accountOf)
	if err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}

// checkRoster applies the three roster rules.
func checkRoster(roster []*models.BeneficialOwner) error {
	var f apierr.Fields
	var owner, controller bool
	var total float64
	for _, o := range roster {
		owner = owner || o.HasRole(models.RoleOwner)
		controller = controller || o.HasRole(models.RoleController)
		if o.PercentOwnership != nil {
			total += *o.PercentOwnership
		}
	}
	if !owner {
		f.Add("beneficial_owners", "must include at least one person with the owner role")
	}
	if !controller {
		f.Add("beneficial_owners", "must include at least one person with the controller role")
	}
	if total > 100 {
		f.Addf("beneficial_owners", "combined percent_ownership must be at most 100 (it is %g)", total)
	}
	return f.Err()
}
