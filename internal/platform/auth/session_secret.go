package auth

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// IssueSessionSecret mints the client secret of an onboarding or checkout
// session inside the caller's transaction and stores only its hash. Any
// earlier live secret of the same kind for the account is revoked in the
// same transaction: an account has one active session of a kind at a time.
func IssueSessionSecret(ctx context.Context, tx *store.Tenant, kind Kind, sessionID, accountID uuid.UUID, now time.Time, ttl time.Duration) (string, error) {
	return issueSessionSecret(ctx, tx, kind, sessionID, accountID, now, ttl, func(context.Context, uuid.UUID) (string, error) {
		return RandomString(secretLength), nil
	})
}

// IssueDerivedSessionSecret is IssueSessionSecret with the secret's random
// part made by derive from the id of the record that keeps its hash, so
// that a secret key's read can show the secret again (SessionSecretsOf)
// while only its hash is stored.
func IssueDerivedSessionSecret(ctx context.Context, tx *store.Tenant, kind Kind, sessionID, accountID uuid.UUID,
	now time.Time, ttl time.Duration, derive SecretDeriver) (string, error) {
	return issueSessionSecret(ctx, tx, kind, sessionID, accountID, now, ttl, derive)
}

func issueSessionSecret(ctx context.Context, tx *store.Tenant, kind Kind, sessionID, accountID uuid.UUID,
	now time.Time, ttl time.Duration, random SecretDeriver) (string, error) {
	if err := RevokeSessionSecrets(ctx, tx, kind, accountID, now); err != nil {
		return "", err
	}
	recordID := ids.New(now)
	part, err := random(ctx, recordID)
	if err != nil {
		return "", err
	}
	plain := sessionSecretPrefix(kind) + part
	s := &SessionSecret{ID: recordID, Kind: string(kind), SessionID: sessionID, AccountID: accountID,
		Hash: Hash(plain), ExpiresAt: wire.At(now.Add(ttl)), Created: wire.At(now)}
	if _, err := tx.Insert(s).Exec(ctx); err != nil {
		return "", err
	}
	return plain, nil
}

// sessionSecretPrefix is the prefix of a session kind's secrets.
func sessionSecretPrefix(kind Kind) string {
	if kind == CheckoutSession {
		return CheckoutSecretPrefix
	}
	return OnboardingSecretPrefix
}

// SessionSecretsOf answers, for each of sessionIDs that has one, its
// session's newest live client secret of kind, made again by derive (as
// ObjectSecretsOf does for objects' secrets).
func SessionSecretsOf(ctx context.Context, tx *store.Tenant, kind Kind, sessionIDs []uuid.UUID, now time.Time,
	derive SecretDeriver) (map[uuid.UUID]string, error) {
	prefix := sessionSecretPrefix(kind)
	return liveSecretsOf(ctx, tx, kind, sessionIDs, now, derive, func(_ uuid.UUID, random string) string {
		return prefix + random
	})
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

// RevokeSecretsOfSession ends every live secret of kind of one session:
// a session that belongs to no account (a customer's) is replaced or
// ended by its id.
func RevokeSecretsOfSession(ctx context.Context, tx *store.Tenant, kind Kind, sessionID uuid.UUID, now time.Time) error {
	q := tx.Update((*SessionSecret)(nil)).Set("revoked_at = ?", now).
		Where("session_id = ?", sessionID).Where("kind = ?", string(kind)).Where("revoked_at IS NULL")
	_, err := execAnnounced(ctx, q)
	return err
}

// SecretDeriver makes the random part of an object's client secret from
// the id of the record that keeps its hash (secrets.Source.Derive under the
// server secret): a secret key's read can then show the secret again
// (ObjectSecretsOf) while only its hash is stored.
type SecretDeriver func(ctx context.Context, recordID uuid.UUID) (string, error)

// IssueObjectSecret mints the client secret of one object (a charge
// intent: ci_<id>_secret_<derived>) inside the caller's transaction and
// stores only its hash, as a session secret of kind whose session is the
// object. accountID, when not zero, is the object's account. Unlike a
// session's, an object's secret does not replace earlier ones: each
// object has its own.
func IssueObjectSecret(ctx context.Context, tx *store.Tenant, kind Kind, prefix string, objectID, accountID uuid.UUID,
	now time.Time, ttl time.Duration, derive SecretDeriver) (string, error) {
	recordID := ids.New(now)
	random, err := derive(ctx, recordID)
	if err != nil {
		return "", err
	}
	plain := objectSecret(prefix, objectID, random)
	s := &SessionSecret{ID: recordID, Kind: string(kind), SessionID: objectID, AccountID: accountID,
		Hash: Hash(plain), ExpiresAt: wire.At(now.Add(ttl)), Created: wire.At(now)}
	if _, err := tx.Insert(s).Exec(ctx); err != nil {
		return "", err
	}
	return plain, nil
}

func objectSecret(prefix string, objectID uuid.UUID, random string) string {
	return prefix + objectID.String() + "_secret_" + random
}

// ObjectSecretsOf answers, for each of objectIDs that has one, its newest
// live client secret of kind, made again by derive: one statement, however
// many objects. A secret derive does not reproduce (one minted at random
// before secrets were derived) is left out.
func ObjectSecretsOf(ctx context.Context, tx *store.Tenant, kind Kind, prefix string, objectIDs []uuid.UUID,
	now time.Time, derive SecretDeriver) (map[uuid.UUID]string, error) {
	return liveSecretsOf(ctx, tx, kind, objectIDs, now, derive, func(objectID uuid.UUID, random string) string {
		return objectSecret(prefix, objectID, random)
	})
}

// liveSecretsOf reads the newest live secret record of kind of each of
// sessionIDs in one statement and makes each secret again (format of its
// derived part), keeping those whose hash matches the record's.
func liveSecretsOf(ctx context.Context, tx *store.Tenant, kind Kind, sessionIDs []uuid.UUID, now time.Time,
	derive SecretDeriver, format func(sessionID uuid.UUID, random string) string) (map[uuid.UUID]string, error) {
	out := make(map[uuid.UUID]string, len(sessionIDs))
	if len(sessionIDs) == 0 {
		return out, nil
	}
	var rows []*SessionSecret
	err := tx.Select(&rows).DistinctOn("ss.session_id").Where("ss.kind = ?", string(kind)).
		Where("ss.session_id IN (?)", bun.In(sessionIDs)).Where("ss.revoked_at IS NULL").Where("ss.expires_at > ?", now).
		OrderExpr("ss.session_id, ss.created DESC, ss.id DESC").Scan(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		random, err := derive(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		if plain := format(r.SessionID, random); subtle.ConstantTimeCompare(Hash(plain), r.Hash) == 1 {
			out[r.SessionID] = plain
		}
	}
	return out, nil
}

// ObjectSecretMatches reports whether secret is the live client secret of
// kind for the object objectID, in tx's merchant and mode: the check a
// publishable key's request carrying an object's client_secret makes.
func ObjectSecretMatches(ctx context.Context, tx *store.Tenant, kind Kind, objectID uuid.UUID, secret string, now time.Time) (bool, error) {
	n, err := tx.Select((*SessionSecret)(nil)).Where("ss.hash = ?", Hash(secret)).Where("ss.kind = ?", string(kind)).
		Where("ss.session_id = ?", objectID).Where("ss.revoked_at IS NULL").Where("ss.expires_at > ?", now).Count(ctx)
	return n > 0, err
}

// derivedSecretLength is the length of a client secret's derived part, as
// long as a random one was.
const derivedSecretLength = 40

// SecretSource derives bytes from the server secret for a purpose
// (secrets.Source).
type SecretSource interface {
	Derive(ctx context.Context, purpose string, data []byte) ([]byte, error)
}

// DerivedSecrets is the SecretDeriver of one kind of client secret: the
// base62 of what src derives for purpose from the record's id. Each kind
// names its own purpose, so two kinds never derive the same secret.
func DerivedSecrets(src SecretSource, purpose string) SecretDeriver {
	return func(ctx context.Context, recordID uuid.UUID) (string, error) {
		b, err := src.Derive(ctx, purpose, recordID[:])
		if err != nil {
			return "", err
		}
		return Base62Of(b, derivedSecretLength), nil
	}
}
