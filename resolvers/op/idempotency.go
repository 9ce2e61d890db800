package op

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/idempotency"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// credentialScope is the part of a key's scope that names the caller: the
// credential kind, and the session for session secrets, so that a key is
// only ever replayed to the kind of credential (and the session) that used
// it (API-DECISIONS §3).
func credentialScope(p *auth.Principal) string {
	switch p.Kind {
	case auth.OnboardingSession, auth.CheckoutSession, auth.ChargeIntentSecret, auth.CustomerOnboardingSession:
		return string(p.Kind) + ":" + p.SessionID.String()
	default:
		return string(p.Kind)
	}
}

// replay claims the key for this transaction and, when a committed result
// is stored under it, decodes that result into out. A duplicate executing
// right now is 409 idempotency_key_in_use; the key used for another
// request is 400 idempotency_error.
func replay[Out any](ctx context.Context, k *Kit, tx *store.Tenant, credential, key, operation string, fp []byte, out *Out) (bool, error) {
	claimed, err := idempotency.Claim(ctx, tx, credential, key)
	if err != nil {
		return false, err
	}
	if !claimed {
		return false, apierr.Conflict(apierr.CodeIdempotencyKeyInUse,
			"A request with this Idempotency-Key is still being processed; retry later", nil)
	}
	// Expiry is bookkeeping, not the change's time: reading the clock here
	// leaves the write's own time to be read after its locks.
	rec, err := idempotency.Lookup(ctx, tx, credential, key, k.Clock.Now())
	if err != nil || rec == nil {
		return false, err
	}
	if rec.Operation != operation || !bytesEqual(rec.Fingerprint, fp) {
		return false, apierr.BadRequest(apierr.CodeIdempotencyError,
			"Keys for idempotent requests can only be used with the same parameters they were first used with",
			idempotency.Header)
	}
	result := rec.Result
	if secrets.IsSealedBytes(result) { // records written before results were sealed are plain
		if result, err = k.Secret.OpenBytes(ctx, resultPurpose, result, resultContext(tx, credential, key)); err != nil {
			return false, fmt.Errorf("op: replay %s: %w", operation, err)
		}
	}
	if err := json.Unmarshal(result, out); err != nil {
		return false, fmt.Errorf("op: replay %s: %w", operation, err)
	}
	return true, nil
}

// resultPurpose keys the sealing of stored results.
const resultPurpose = "idempotency-result"

// resultContext binds a sealed result to its row: tenant, credential and
// key.
func resultContext(tx *store.Tenant, credential, key string) []byte {
	sc := tx.Scope()
	return []byte(fmt.Sprintf("%s|%t|%s|%s", sc.MerchantID, sc.Livemode, credential, key))
}

// record stores the committed result under the key, in the write's
// transaction, sealed with the server secret: a result may carry a secret
// shown once (a session's client secret, a webhook signing secret), and
// the database must not keep it readable for the record's 24 hours.
func record(ctx context.Context, k *Kit, tx *store.Tenant, credential, key, operation string, fp []byte, now time.Time, out any) error {
	plain, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("op: record %s: %w", operation, err)
	}
	result, err := k.Secret.SealBytes(ctx, resultPurpose, plain, resultContext(tx, credential, key))
	if err != nil {
		return fmt.Errorf("op: record %s: %w", operation, err)
	}
	return idempotency.Save(ctx, tx, &idempotency.Record{Credential: credential, Key: key, Operation: operation,
		Fingerprint: fp, Result: result, Created: now, Expires: now.Add(idempotency.TTL)})
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

// fingerprint is the request's fingerprint for s (nil without an
// Idempotency-Key): its operation and parameters, keyed by the server
// secret.
func fingerprint(req *idempotency.Request, secret []byte, s Spec) ([]byte, error) {
	if req == nil {
		return nil, nil
	}
	params, err := json.Marshal(s.Params)
	if err != nil {
		return nil, fmt.Errorf("op: fingerprint of %s: %w", s.Name, err)
	}
	return idempotency.Fingerprint(secret, s.Name, params), nil
}

// Replayed answers the result recorded under the request's Idempotency-Key
// for s, when one is: an operation that commits in several transactions
// before the Write that records its answer (a test clock's advance) asks
// first, so that the retry of a request that answered replays that answer
// instead of running against what the request changed. The key used for
// another request is 400 idempotency_error, as in Write.
func Replayed[Out any](ctx context.Context, k *Kit, s Spec) (Out, bool, error) {
	var out Out
	req := idempotency.From(ctx)
	if req == nil {
		return out, false, nil
	}
	p, err := auth.Require(ctx, s.Allow...)
	if err != nil {
		return out, false, err
	}
	secret, err := k.Secret.Get(ctx)
	if err != nil {
		return out, false, err
	}
	fp, err := fingerprint(req, secret, s)
	if err != nil {
		return out, false, err
	}
	var replayed bool
	err = k.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		replayed, err = replay(ctx, k, tx, credentialScope(p), req.Key, s.Name, fp, &out)
		return err
	})
	if err != nil || !replayed {
		var zero Out
		return zero, false, err
	}
	req.Replayed = true
	return out, true, nil
}
