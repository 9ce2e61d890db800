package accounts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// MaxBeneficialOwners bounds an account's roster: a business has a handful
// of owners and controllers, and the roster is answered whole.
const MaxBeneficialOwners = 50

// ownerParams identify an owner operation for idempotency.
type ownerParams struct {
	AccountID string `json:"account_id"`
	ID        string `json:"id,omitempty"`
	Input     any    `json:"input,omitempty"`
}

// ownerWriters are the credentials that manage beneficial owners (spec
// doc 1 §5.6: the secret key only).
var ownerWriters = []auth.Kind{auth.SecretKey}

// Create adds a person to the account's roster. With invite
// an invitation is sent and the owner is invite_sent; otherwise the
// details are taken as given and the owner is completed once they are all
// on file (pending before).
func (ow *Owners) Create(ctx context.Context, accountID string, in *models.CreateBeneficialOwnerInput) (*models.BeneficialOwner, error) {
	s := ow.svc
	spec := op.Spec{Name: "beneficial_owner.create", Allow: ownerWriters, Params: ownerParams{AccountID: accountID, Input: in},
		Check: op.AtAnyTime(in.Validate)}
	var o *models.BeneficialOwner
	// At the write's time: what the check before the transaction could not
	// settle (op.AtAnyTime), a date against the time, is checked here.
	check := func(w *op.W) error { return in.Validate(w.Now()) }
	return writeAccount(ctx, s, spec, accountID, check, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		n, err := aw.Tx.Select((*models.BeneficialOwner)(nil)).Where("bo.account_id = ?", aw.Account.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n >= MaxBeneficialOwners {
			return apierr.Rule(apierr.CodeValidation, "An account can have at most 50 beneficial owners", "", nil)
		}
		now := aw.Now()
		o = in.NewBeneficialOwner()
		o.ID, o.AccountID, o.Created, o.Updated = ids.New(now), aw.Account.ID, models.At(now), models.At(now)
		if in.Invite != nil && *in.Invite {
			o.Invited, o.Status = true, models.OwnerInviteSent
			invite(o, now)
		} else {
			o.Advance()
		}
		_, err = aw.Tx.Insert(o).Exec(ctx)
		return err
	}, func(*accountWrite) *models.BeneficialOwner { return o })
}

// Update merges an update (spec doc 1 §4.2 rule 2): the
// status only moves forward, and no invitation is sent.
func (ow *Owners) Update(ctx context.Context, accountID, id string, in *models.UpdateBeneficialOwnerInput) (*models.BeneficialOwner, error) {
	s := ow.svc
	spec := op.Spec{Name: "beneficial_owner.update", Allow: ownerWriters,
		Params: ownerParams{AccountID: accountID, ID: id, Input: in}, Check: op.AtAnyTime(in.Validate)}
	var o *models.BeneficialOwner
	// At the write's time: what the check before the transaction could not
	// settle (op.AtAnyTime), a date against the time, is checked here.
	check := func(w *op.W) error { return in.Validate(w.Now()) }
	return writeAccount(ctx, s, spec, accountID, check, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		var err error
		if o, err = lockOwner(ctx, aw, id); err != nil {
			return err
		}
		in.ApplyTo(o)
		if o.Advance() {
			o.InvitationHash = nil // the details are complete: the invitation has done its work
		}
		o.Updated = models.At(aw.Now())
		_, err = aw.Tx.Update(o).WherePK().Exec(ctx)
		return err
	}, func(*accountWrite) *models.BeneficialOwner { return o })
}

// Delete removes a person from the roster; a pending
// invitation goes with the row, so it can no longer be used.
func (ow *Owners) Delete(ctx context.Context, accountID, id string) error {
	s := ow.svc
	spec := op.Spec{Name: "beneficial_owner.delete", Allow: ownerWriters, Params: ownerParams{AccountID: accountID, ID: id}}
	_, err := writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		o, err := lockOwner(ctx, aw, id)
		if err != nil {
			return err
		}
		_, err = aw.Tx.Delete(o).WherePK().Exec(ctx)
		return err
	}, func(*accountWrite) struct{} { return struct{}{} })
	return err
}

// ResendInvite sends a fresh invitation (the earlier one
// stops working) to an invited owner who has not completed the details;
// the owner is answered unchanged.
func (ow *Owners) ResendInvite(ctx context.Context, accountID, id string) (*models.BeneficialOwner, error) {
	s := ow.svc
	spec := op.Spec{Name: "beneficial_owner.resend_invite", Allow: ownerWriters, Params: ownerParams{AccountID: accountID, ID: id}}
	var o *models.BeneficialOwner
	return writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		if err := writable(aw.Account); err != nil {
			return err
		}
		var err error
		if o, err = lockOwner(ctx, aw, id); err != nil {
			return err
		}
		if !o.PendingInvitation() {
			return apierr.InvalidState("Only an invited beneficial owner who has not completed their details can be invited again")
		}
		invite(o, aw.Now())
		_, err = aw.Tx.Update(o).Column("invitation_hash", "invitation_sent").WherePK().Exec(ctx)
		return err
	}, func(*accountWrite) *models.BeneficialOwner { return o })
}

// invite issues a new invitation to o. Only its hash is kept; the sandbox
// sends no e-mail.
func invite(o *models.BeneficialOwner, now time.Time) {
	o.InvitationHash = auth.Hash(auth.NewSessionSecret("boi_"))
	o.InvitationSent = models.At(now)
}

// lockOwner reads one owner of the locked account for change; another
// account's owner is missing like one that does not exist.
func lockOwner(ctx context.Context, aw *accountWrite, id string) (*models.BeneficialOwner, error) {
	return lockOfAccount(ctx, aw, ownerTable, id, func(o *models.BeneficialOwner) uuid.UUID { return o.AccountID })
}

// writable refuses changes under a disabled account.
func writable(a *models.Account) error {
	if a.Status == models.AccountStatusDisabled {
		return apierr.InvalidState("The account is disabled and cannot be changed")
	}
	return nil
}
