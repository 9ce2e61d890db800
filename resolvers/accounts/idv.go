package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// idvActors may run the document check: the holder's onboarding secret
// (spec doc 1 §4.4), for its own account.
var idvActors = []auth.Kind{auth.OnboardingSession}

// IDV is the document verification family of the area: the holder starts
// an inquiry and completes it, under the account's lock.
type IDV struct{ svc *Service }

// StartSession creates a document-check inquiry at the identity
// provider for the onboarding secret's account, or reuses its open one
// (then with a session_token to resume it). The account's row lock
// serializes sessions and a unique index keeps one open inquiry per
// account. The sandbox provider judges the holder whose profile phone the
// account has now (docs/sandbox.md).
func (is *IDV) StartSession(ctx context.Context) (*models.IDVSession, error) {
	s := is.svc
	spec := op.Spec{Name: "idv.session", Allow: idvActors, Params: struct{}{}, Provider: "identity"}
	var out *models.IDVSession
	return writeAccount(ctx, s, spec, sessionAccount(ctx), nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		open := new(models.IDVInquiry)
		err := aw.Tx.Select(open).Where("inq.account_id = ?", a.ID).Where("inq.status = ?", verification.InquiryCreated).Scan(ctx)
		switch {
		case err == nil:
			token := "idv_sess_" + auth.RandomString(32)
			out = &models.IDVSession{InquiryID: open.ID.String(), SessionToken: &token, Reused: true}
			return nil
		case !store.IsNoRows(err):
			return err
		}
		now := aw.Now()
		inq := &models.IDVInquiry{ID: ids.New(now), AccountID: a.ID, Provider: sandboxProvider, Status: verification.InquiryCreated,
			Subject: a.ProfilePhone(), Created: models.At(now), Updated: models.At(now)}
		if _, err := aw.Tx.Insert(inq).Exec(ctx); err != nil {
			return err
		}
		out = &models.IDVSession{InquiryID: inq.ID.String()}
		return nil
	}, func(*accountWrite) *models.IDVSession { return out })
}

// Complete pulls the finished inquiry from the identity provider
// synchronously and syncs it to the individual's document verification
// (spec doc 1 §4.4 rule 3): an approved document satisfies
// document_verification (idv, age_verification), and the capabilities
// re-evaluate in the same write. Completing a completed inquiry answers
// its result again. 404 on inquiry_id for an inquiry of another account;
// 503 provider_not_configured in live mode, as for the session.
func (is *IDV) Complete(ctx context.Context, in *models.CompleteIDVInput) (*models.IDVResult, error) {
	s := is.svc
	spec := op.Spec{Name: "idv.complete", Allow: idvActors, Params: in, Provider: "identity", Check: in.Validate}
	var out *models.IDVResult
	return writeAccount(ctx, s, spec, sessionAccount(ctx), nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		inq, err := lockInquiry(ctx, aw, *in.InquiryID)
		if err != nil {
			return err
		}
		if verification.InquiryOpen(inq.Status) {
			now := aw.Now()
			inq.Status, inq.Completed, inq.Updated = verification.DocumentOutcome(inq.Subject), models.At(now), models.At(now)
			if _, err := aw.Tx.Update(inq).Column("status", "completed", "updated").WherePK().Exec(ctx); err != nil {
				return err
			}
			if inq.Status == verification.InquiryApproved {
				a.Verification.DocumentVerified = true
			}
		}
		out = idvResult(inq.Status, a.Verification.IdentityRun)
		return nil
	}, func(*accountWrite) *models.IDVResult { return out })
}

// idvResult is what complete answers: the document's verdict, and the
// individual's latest run outcome while it did not pass (null before a
// run concluded, once it passed, and when the document answered the
// run's step-up).
func idvResult(status string, run *capability.RunOutcome) *models.IDVResult {
	r := &models.IDVResult{Verified: status == verification.InquiryApproved, Status: models.InquiryStatus(status)}
	if run == nil || run.Status == capability.RunApproved || run.FailureType == "" ||
		run.Category == "step_up" && r.Verified {
		return r
	}
	ft, cat := models.IdentityFailureType(run.FailureType), models.VerificationCategory(run.Category)
	retriable := cat == models.CategoryRetriableWithNewData || cat == models.CategoryTransient
	r.FailureType, r.Category, r.Retriable = &ft, &cat, &retriable
	return r
}

// lockInquiry reads one inquiry of the locked account for update.
func lockInquiry(ctx context.Context, aw *accountWrite, id string) (*models.IDVInquiry, error) {
	notFound := func() error {
		e := apierr.NotFound("inquiry", id)
		e.Param = "inquiry_id"
		return e
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, notFound()
	}
	inq := new(models.IDVInquiry)
	err := aw.Tx.Select(inq).Where("inq.account_id = ?", aw.Account.ID).Where("inq.id = ?", uid).For("UPDATE").Scan(ctx)
	if store.IsNoRows(err) {
		return nil, notFound()
	}
	return inq, err
}

// sessionAccount is the account of the caller's onboarding secret ("" for
// any other caller, whom the write path refuses before it is looked up).
func sessionAccount(ctx context.Context) string {
	if p := auth.FromContext(ctx); p != nil && p.Kind == auth.OnboardingSession {
		return p.AccountID.String()
	}
	return ""
}
