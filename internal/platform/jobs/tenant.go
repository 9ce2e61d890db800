package jobs

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Tenant is the merchant and mode a job works for, embedded first in the
// args of every job that works inside one tenant. Its JSON members are
// the ones those args always carried (merchant_id, livemode), so jobs that
// wait in river_job decode as before and unique args compare the same.
type Tenant struct {
	MerchantID uuid.UUID `json:"merchant_id"`
	Livemode   bool      `json:"livemode"`
}

// TenantOf is the tenant of a scope, for the args of a job enqueued in it.
func TenantOf(s store.Scope) Tenant { return Tenant{MerchantID: s.MerchantID, Livemode: s.Livemode} }

// Scope is the scope the job's transaction is bound to.
func (t Tenant) Scope() store.Scope {
	return store.Scope{MerchantID: t.MerchantID, Livemode: t.Livemode}
}
