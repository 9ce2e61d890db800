package accounts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// termsActors may mint and accept terms of service tokens: the merchant's
// secret key, and the holder's onboarding secret (its tokens are its
// account's).
var termsActors = []auth.Kind{auth.SecretKey, auth.OnboardingSession}

// Terms is the terms of service family of the area: a token presents the
// terms, and its acceptance records them on its account.
type Terms struct{ svc *Service }

// CreateToken mints a token to present the terms with (the
// real service's POST /v1/terms_of_service). An onboarding secret's token
// is bound to its account; a secret key may bind one to account_id.
func (ts *Terms) CreateToken(ctx context.Context, in *models.CreateTermsOfServiceInput) (*models.TermsToken, error) {
	s := ts.svc
	spec := op.Spec{Name: "terms_of_service.create", Allow: termsActors, Params: in, Check: in.Validate}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.TermsToken, error) {
		var account *uuid.UUID
		switch {
		case w.P.Kind == auth.OnboardingSession:
			id := w.P.AccountID
			account = &id
		case in.AccountID != nil:
			a, err := findAccount(ctx, w.Tx, w.P, *in.AccountID)
			if err != nil {
				e := apierr.As(err)
				e.Param = "account_id"
				return nil, e
			}
			account = &a.ID
		}
		now := w.Now()
		t := &models.TermsOfServiceToken{Token: models.TermsTokenPrefix + auth.RandomString(32), AccountID: account,
			Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(t).Exec(ctx); err != nil {
			return nil, err
		}
		return &models.TermsToken{Token: t.Token}, nil
	})
}

// Accept records the acceptance of a token (the real
// service's PATCH /v1/terms_of_service): when, from which IP address and
// user agent (accepted_at defaults to now). A token bound to an account
// accepts that account's terms in the same write, which satisfies
// terms_of_service (and may activate capabilities, announced as usual).
// Accepting again stamps the acceptance anew. An unknown token, or one of
// another account than an onboarding secret's, is 404 on `token`.
func (ts *Terms) Accept(ctx context.Context, in *models.AcceptTermsOfServiceInput) (*models.TermsToken, error) {
	s := ts.svc
	spec := op.Spec{Name: "terms_of_service.accept", Allow: termsActors, Params: in, Check: op.AtAnyTime(in.Validate)}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.TermsToken, error) {
		// At the write's time: what the check before the transaction could
		// not settle (op.AtAnyTime), a date against the time, is checked here.
		if err := in.Validate(w.Now()); err != nil {
			return nil, err
		}
		t, err := findTermsToken(ctx, w.Tx, w.P, *in.Token, false)
		if err != nil {
			return nil, err
		}
		out := &models.TermsToken{Token: t.Token}
		if t.AccountID == nil {
			_, err := acceptToken(ctx, w.Tx, w.P, in, w.Now())
			return out, err
		}
		_, err = s.changeAccount(ctx, w, t.AccountID.String(), func(ctx context.Context, aw *accountWrite) error {
			if err := writable(aw.Account); err != nil {
				return err
			}
			accepted, err := acceptToken(ctx, aw.Tx, aw.P, in, aw.Now())
			if err != nil {
				return err
			}
			aw.Account.TermsOfService = accepted.Record()
			return nil
		})
		return out, err
	})
}

// acceptToken locks the token, stamps its acceptance and answers it.
func acceptToken(ctx context.Context, tx *store.Tenant, p *auth.Principal, in *models.AcceptTermsOfServiceInput, now time.Time) (*models.TermsOfServiceToken, error) {
	t, err := findTermsToken(ctx, tx, p, *in.Token, true)
	if err != nil {
		return nil, err
	}
	at := now
	if in.AcceptedAt != nil {
		at = time.Unix(*in.AcceptedAt, 0)
	}
	t.AcceptedAt, t.IPAddress, t.UserAgent, t.Updated = models.At(at), in.IPAddress, in.UserAgent, models.At(now)
	if _, err := tx.Update(t).Column("accepted_at", "ip_address", "user_agent", "updated").WherePK().Exec(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// findTermsToken reads a token of the caller's scope (for update when
// lock): an onboarding secret sees only its account's tokens.
func findTermsToken(ctx context.Context, tx *store.Tenant, p *auth.Principal, token string, lock bool) (*models.TermsOfServiceToken, error) {
	t := &models.TermsOfServiceToken{}
	q := tx.Select(t).Where("tos.token = ?", token)
	if lock {
		q = q.For("UPDATE")
	}
	err := q.Scan(ctx)
	switch {
	case store.IsNoRows(err), err == nil && p.Kind == auth.OnboardingSession && (t.AccountID == nil || !p.SeesAccount(*t.AccountID)):
		e := apierr.NotFound("terms_of_service token", token)
		e.Param = "token"
		return nil, e
	case err != nil:
		return nil, err
	}
	return t, nil
}

// termsOfAccount turns an account's terms input into its record. A token
// minted by POST /v1/terms_of_service is bound to the account (422 when
// another account holds it), and its acceptance evidence fills what the
// input leaves out; any other token is taken as given. The returned bind
// writes the binding once the account row exists.
func termsOfAccount(ctx context.Context, tx *store.Tenant, accountID uuid.UUID, in *models.TermsOfServiceInput, now time.Time) (*models.TermsOfService, func(context.Context) error, error) {
	rec := in.Accept(now)
	if in.Token == nil || !models.IsMintedTermsToken(*in.Token) {
		return rec, nil, nil
	}
	t := &models.TermsOfServiceToken{}
	if err := tx.Select(t).Where("tos.token = ?", *in.Token).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return rec, nil, nil // a token of the merchant's own making
		}
		return nil, nil, err
	}
	if t.AccountID != nil && *t.AccountID != accountID {
		return nil, nil, apierr.FieldError("terms_of_service.token", "belongs to another account")
	}
	if !t.AcceptedAt.IsZero() {
		if in.AcceptedAt == nil {
			rec.AcceptedAt = models.ISOTime{Time: t.AcceptedAt.Time.UTC()}
		}
		if rec.IPAddress == nil {
			rec.IPAddress = t.IPAddress
		}
		if rec.UserAgent == nil {
			rec.UserAgent = t.UserAgent
		}
	}
	bind := func(ctx context.Context) error {
		if t.AccountID != nil {
			return nil
		}
		t.AccountID, t.Updated = &accountID, models.At(now)
		_, err := tx.Update(t).Column("account_id", "updated").WherePK().Exec(ctx)
		return err
	}
	return rec, bind, nil
}
