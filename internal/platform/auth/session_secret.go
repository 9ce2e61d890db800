package auth

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// IssueSessionSecret mints the client secret of an onboarding or checkout
// session inside the caller's transaction and stores only its hash. Any
// earlier live secret of the same kind for the account is revoked in the
// same transaction: an account has one active session of a kind at a time.
func IssueSessionSecret(ctx context.Context, tx *store.Tenant, kind Kind, sessionID, accountID uuid.UUID, now time.Time, ttl time.Duration) (string, error) {
	prefix := OnboardingSecretPrefix
	if kind == CheckoutSession {
		prefix = CheckoutSecretPrefix
	}
	if err := RevokeSessionSecrets(ctx, tx, kind, accountID, now); err != nil {
		return "", err
	}
	plain := NewSessionSecret(prefix)
	s := &SessionSecret{ID: ids.New(now), Kind: string(kind), SessionID: sessionID, AccountID: accountID,
		Hash: Hash(plain), ExpiresAt: wire.At(now.Add(ttl)), Created: wire.At(now)}
	if _, err := tx.Insert(s).Exec(ctx); err != nil {
		return "", err
	}
	return plain, nil
}

// RevokeSessionSecrets ends every live secret of kind for the account (a
// new session replaces the old one; disabling an account ends them all
// when kind is empty). The secrets stop working in every server process
// when tx commits (RevocationChannel), and in the calling request's own
// process at once.
func RevokeSessionSecrets(ctx context.Context, tx *store.Tenant, kind Kind, accountID uuid.UUID, now time.Time) error {
	q := tx.Update((*SessionSecret)(nil)).Set("revoked_at = ?", now).
		Where("account_id = ?", accountID).Where("revoked_at IS NULL")
	if kind != "" {
		q = q.Where("kind = ?", string(kind))
	}
	_, err := execAnnounced(ctx, q)
	return err
}

// IssueObjectSecret mints the client secret of one object (a charge
// intent: ci_<id>_secret_<random>) inside the caller's transaction and
// stores only its hash, as a session secret of kind whose session is the
// object. accountID, when not zero, is the object's account. Unlike a
// session's, an object's secret does not replace earlier ones: each
// object has its own.
func IssueObjectSecret(ctx context.Context, tx *store.Tenant, kind Kind, prefix string, objectID, accountID uuid.UUID,
	now time.Time, ttl time.Duration) (string, error) {
	plain := prefix + objectID.String() + "_secret_" + RandomString(secretLength)
	s := &SessionSecret{ID: ids.New(now), Kind: string(kind), SessionID: objectID, AccountID: accountID,
		Hash: Hash(plain), ExpiresAt: wire.At(now.Add(ttl)), Created: wire.At(now)}
	if _, err := tx.Insert(s).Exec(ctx); err != nil {
		return "", err
	}
	return plain, nil
}

// ObjectSecretMatches reports whether secret is the live client secret of
// kind for the object objectID, in tx's merchant and mode: the check a
// publishable key's request carrying an object's client_secret makes.
func ObjectSecretMatches(ctx context.Context, tx *store.Tenant, kind Kind, objectID uuid.UUID, secret string, now time.Time) (bool, error) {
	n, err := tx.Select((*SessionSecret)(nil)).Where("ss.hash = ?", Hash(secret)).Where("ss.kind = ?", string(kind)).
		Where("ss.session_id = ?", objectID).Where("ss.revoked_at IS NULL").Where("ss.expires_at > ?", now).Count(ctx)
	return n > 0, err
}
