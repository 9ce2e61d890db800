package bench

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

var concurrencies = []int{1, 4, 16}

func accountBody() map[string]any {
	return map[string]any{"type": "individual", "capabilities": []string{"kyc", "card_send"},
		"profile": map[string]any{"individual": map[string]any{
			"name": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}, "email": "ada@example.com"}}}
}

// runConcurrently spreads b.N calls of fn over c concurrent clients: c=1
// is a plain loop (ns/op is then the latency of one request); otherwise
// ns/op is wall time over requests, the inverse of throughput.
func runConcurrently(b *testing.B, c int, fn func(i int64)) {
	var next atomic.Int64
	b.ResetTimer()
	if c == 1 {
		for range b.N {
			fn(next.Add(1))
		}
		return
	}
	procs := runtime.GOMAXPROCS(0) // RunParallel starts SetParallelism*GOMAXPROCS goroutines
	b.SetParallelism((c + procs - 1) / procs)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			fn(next.Add(1))
		}
	})
}

// BenchmarkREST measures whole requests: HTTP, auth, validation, one
// transaction with its event, and rendering.
func BenchmarkREST(b *testing.B) {
	for _, c := range concurrencies {
		b.Run(fmt.Sprintf("create_account/c=%d", c), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			runConcurrently(b, c, func(int64) {
				if r := cl.Post("/v1/accounts", accountBody()); r.Status != http.StatusCreated {
					b.Fatalf("create: %d %s", r.Status, r.Body)
				}
			})
		})
		b.Run(fmt.Sprintf("get_account/c=%d", c), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			id := cl.Post("/v1/accounts", accountBody()).JSON()["id"].(string)
			runConcurrently(b, c, func(int64) {
				if r := cl.Get("/v1/accounts/" + id); r.Status != http.StatusOK {
					b.Fatalf("get: %d %s", r.Status, r.Body)
				}
			})
		})
		b.Run(fmt.Sprintf("list_accounts_10/c=%d", c), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			for range 10 {
				cl.Post("/v1/accounts", accountBody())
			}
			var statements atomic.Int64
			runConcurrently(b, c, func(int64) {
				r := cl.Get("/v1/accounts?per_page=10")
				if r.Status != http.StatusOK {
					b.Fatalf("list: %d %s", r.Status, r.Body)
				}
				statements.Store(int64(r.Statements))
			})
			b.ReportMetric(float64(statements.Load()), "statements/op")
		})
	}
}

// BenchmarkBare runs the statements a create and a read issue, directly
// through the store, without HTTP or the operation layer: the floor.
func BenchmarkBare(b *testing.B) {
	for _, c := range concurrencies {
		b.Run(fmt.Sprintf("create_account/c=%d", c), func(b *testing.B) {
			env := testenv.New(b)
			scope := store.Scope{MerchantID: env.Merchant.ID}
			runConcurrently(b, c, func(int64) {
				if err := bareCreate(env, scope); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(fmt.Sprintf("get_account/c=%d", c), func(b *testing.B) {
			env := testenv.New(b)
			scope := store.Scope{MerchantID: env.Merchant.ID}
			if err := bareCreate(env, scope); err != nil {
				b.Fatal(err)
			}
			var a models.Account
			if err := env.DB.Tenant(scope).Select(&a).Limit(1).Scan(context.Background()); err != nil {
				b.Fatal(err)
			}
			runConcurrently(b, c, func(int64) {
				ctx := context.Background()
				t := env.DB.Tenant(scope)
				var key auth.APIKey
				if err := env.DB.Bun.NewSelect().Model(&key).Relation("Merchant").Limit(1).Scan(ctx); err != nil {
					b.Fatal(err)
				}
				var got models.Account
				if err := t.Select(&got).Where("a.id = ?", a.ID).Scan(ctx); err != nil {
					b.Fatal(err)
				}
				var caps []models.Capability
				if err := t.Select(&caps).Where("c.account_id = ?", a.ID).Scan(ctx); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// bareCreate inserts an account, its four capabilities and its event in
// one transaction, as POST /v1/accounts does.
func bareCreate(env *testenv.Env, scope store.Scope) error {
	ctx := context.Background()
	now := time.Now().UTC() // clock: benchmark only
	return env.DB.Tx(ctx, scope, func(ctx context.Context, tx *store.Tenant) error {
		a := &models.Account{ID: ids.New(now), Type: models.AccountTypeIndividual, Status: models.AccountStatusPending,
			RestrictedBy: []models.Restrictor{}, Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
		if _, err := tx.Insert(a).Exec(ctx); err != nil {
			return err
		}
		var caps []*models.Capability
		for _, n := range []capability.Name{capability.KYC, capability.CardVerification, capability.CardSend, capability.PhoneVerification} {
			caps = append(caps, &models.Capability{ID: ids.New(now), AccountID: a.ID, Name: n, Status: capability.StatusPending,
				Created: models.ISOTime{Time: now}, Updated: models.ISOTime{Time: now}})
		}
		if _, err := store.InsertModel(tx, caps).Exec(ctx); err != nil {
			return err
		}
		raw, err := events.Render(a)
		if err != nil {
			return err
		}
		return events.Insert(ctx, tx, []*events.Event{events.New(now, accounts.EventAccountCreated, a.ID, raw, nil)})
	})
}
