package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// ModeKeys are a mode's two keys, shown once when issued.
type ModeKeys struct {
	Secret      string `json:"secret"`
	Publishable string `json:"publishable"`
}

// IssuedKeys are a new merchant's four keys (API-DECISIONS §1).
type IssuedKeys struct {
	Sandbox    ModeKeys `json:"sandbox"`
	Production ModeKeys `json:"production"`
}

// NewMerchant is what an operator asks for when creating a merchant.
type NewMerchant struct {
	Name                 string
	Products             []string // the product names the merchant holds
	DisabledCapabilities []string
}

// CreateMerchant creates a merchant with its four keys in one transaction.
// Only the hashes are stored; the plaintext keys are returned once.
func CreateMerchant(ctx context.Context, db *store.DB, clk clock.Clock, in NewMerchant) (*Merchant, IssuedKeys, error) {
	return CreateMerchantWith(ctx, db, clk, in, nil)
}

// CreatedMerchant is a merchant being created, seen from inside the
// transaction that creates it (CreateMerchantWith).
type CreatedMerchant struct {
	Merchant *Merchant
	Keys     IssuedKeys
	// Tenant is the creating transaction bound to one of the new
	// merchant's modes, for its first rows there.
	Tenant func(livemode bool) *store.Tenant
}

// CreateMerchantWith is CreateMerchant that runs then, when not nil, in the
// same transaction once the merchant and its keys are inserted. An error
// from then rolls back the merchant and its keys: what a merchant must
// start with (its default fees) and the one showing of its keys belong
// there, so that a merchant never exists without them.
func CreateMerchantWith(ctx context.Context, db *store.DB, clk clock.Clock, in NewMerchant,
	then func(ctx context.Context, c CreatedMerchant) error) (*Merchant, IssuedKeys, error) {
	now := clk.Now()
	products, disabled := in.Products, in.DisabledCapabilities
	if products == nil {
		products = []string{}
	}
	if disabled == nil {
		disabled = []string{}
	}
	m := &Merchant{ID: ids.New(now), Name: in.Name, Products: products,
		DisabledCapabilities: disabled, Created: wire.At(now), Updated: wire.At(now)}
	var keys IssuedKeys
	err := db.TxAcross(ctx, func(ctx context.Context, tx bun.Tx, tenant func(store.Scope) *store.Tenant) error {
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return err
		}
		for _, livemode := range []bool{false, true} {
			mk := &keys.Sandbox
			if livemode {
				mk = &keys.Production
			}
			var err error
			if mk.Secret, err = insertKey(ctx, tx, now, m.ID, SecretKey, livemode); err != nil {
				return err
			}
			if mk.Publishable, err = insertKey(ctx, tx, now, m.ID, PublishableKey, livemode); err != nil {
				return err
			}
		}
		if then == nil {
			return nil
		}
		return then(ctx, CreatedMerchant{Merchant: m, Keys: keys, Tenant: func(livemode bool) *store.Tenant {
			return tenant(store.Scope{MerchantID: m.ID, Livemode: livemode})
		}})
	})
	if err != nil {
		return nil, IssuedKeys{}, fmt.Errorf("create merchant: %w", err)
	}
	return m, keys, nil
}

func insertKey(ctx context.Context, idb bun.IDB, now time.Time, merchantID uuid.UUID, kind Kind, livemode bool) (string, error) {
	plain := NewAPIKey(kind, livemode)
	k := &APIKey{ID: ids.New(now), MerchantID: merchantID, Livemode: livemode, Kind: string(kind),
		Hash: Hash(plain), Prefix: DisplayPrefix(plain), Created: wire.At(now)}
	if _, err := idb.NewInsert().Model(k).Exec(ctx); err != nil {
		return "", err
	}
	return plain, nil
}

// RotateKey issues a new key of kind for a merchant's mode. The keys it
// replaces keep working for grace (so deployments can roll over), or stop
// at once when grace is zero. Every server process hears of the replaced
// keys at commit (RevocationChannel) and drops them from its cache; a
// cached key never outlives its new expiry.
func RotateKey(ctx context.Context, db *store.DB, clk clock.Clock, merchantID uuid.UUID, kind Kind, livemode bool, grace time.Duration) (string, error) {
	now := clk.Now()
	var plain string
	err := db.Bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*Merchant)(nil)).Where("id = ?", merchantID).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("no merchant %s", merchantID)
		}
		q := tx.NewUpdate().Model((*APIKey)(nil)).
			Where("merchant_id = ? AND livemode = ? AND kind = ?", merchantID, livemode, string(kind)).
			Where("revoked_at IS NULL")
		if grace > 0 {
			q = q.Set("expires_at = ?", now.Add(grace)).Where("expires_at IS NULL OR expires_at > ?", now.Add(grace))
		} else {
			q = q.Set("revoked_at = ?", now)
		}
		if _, err := execAnnounced(ctx, q); err != nil {
			return err
		}
		plain, err = insertKey(ctx, tx, now, merchantID, kind, livemode)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("rotate key: %w", err)
	}
	return plain, nil
}

// ErrAmbiguousPrefix refuses a revocation by display prefix that matches
// live keys of several merchants: a display prefix is short, and the
// command must never revoke another merchant's key by chance.
var ErrAmbiguousPrefix = errors.New("the display prefix matches live keys of several merchants; name the merchant (--merchant) or give the whole key")

// RevokeKey revokes the key whose display prefix or plaintext is given
// (RevokeKeyOf with no merchant named).
func RevokeKey(ctx context.Context, db *store.DB, clk clock.Clock, keyOrPrefix string) (int, error) {
	return RevokeKeyOf(ctx, db, clk, keyOrPrefix, uuid.Nil)
}

// RevokeKeyOf revokes the key whose display prefix or plaintext is given,
// among merchant's keys (uuid.Nil: any merchant's). A whole key names one
// key by its hash. A display prefix names the live keys carrying it: with
// no merchant named, it must match keys of one merchant only, else
// ErrAmbiguousPrefix and nothing is revoked. The keys stop working in
// every server process at once: each hears of them on RevocationChannel
// when the revocation commits.
func RevokeKeyOf(ctx context.Context, db *store.DB, clk clock.Clock, keyOrPrefix string, merchant uuid.UUID) (int, error) {
	var n int
	err := db.Bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		q := tx.NewUpdate().Model((*APIKey)(nil)).Set("revoked_at = ?", clk.Now()).Where("revoked_at IS NULL")
		if merchant != uuid.Nil {
			q = q.Where("merchant_id = ?", merchant)
		}
		if _, _, ok := parseKey(keyOrPrefix); ok && len(keyOrPrefix) > len(DisplayPrefix(keyOrPrefix)) {
			q = q.Where("hash = ?", Hash(keyOrPrefix))
		} else {
			q = q.Where("prefix = ?", keyOrPrefix)
			if merchant == uuid.Nil {
				// The matching keys are locked while they are counted, so
				// the count holds until the UPDATE.
				var merchants []uuid.UUID
				if err := tx.NewSelect().Model((*APIKey)(nil)).Column("merchant_id").
					Where("revoked_at IS NULL").Where("prefix = ?", keyOrPrefix).For("UPDATE").
					Scan(ctx, &merchants); err != nil {
					return err
				}
				if distinct(merchants) > 1 {
					return ErrAmbiguousPrefix
				}
			}
		}
		var err error
		n, err = execAnnounced(ctx, q)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("revoke key: %w", err)
	}
	return n, nil
}

// distinct counts the different ids in ids.
func distinct(ids []uuid.UUID) int {
	seen := map[uuid.UUID]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	return len(seen)
}
