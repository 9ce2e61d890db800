package httpx

import (
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// ReplicaReads lets the lists of a read request come from a read replica
// (store.AllowReplica): a GET or HEAD that carries no Idempotency-Key and
// is no upgrade to a websocket (GraphQL subscriptions read the primary).
// Whether a replica then serves is the store's decision: only one in
// rotation that has replayed the merchant's last write (store.ReadTenant).
// GraphQL queries sent by POST are marked by the GraphQL handler, which
// knows a query from a mutation.
func ReplicaReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Idempotency-Key") == "" &&
			r.Header.Get("Upgrade") == "" {
			r = r.WithContext(store.AllowReplica(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}
