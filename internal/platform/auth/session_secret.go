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
