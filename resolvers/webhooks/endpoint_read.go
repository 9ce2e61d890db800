package webhooks

import (
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Endpoints are the merchant's: only its secret key manages them.
var managers = []auth.Kind{auth.SecretKey}

// Endpoints is the webhook endpoint family of the area: reads from the kit
// (a deleted endpoint reads as missing everywhere, a write's lock
// included), and Create, Update, Delete and RotateSecret
// (endpoint_write.go).
type Endpoints struct {
	op.Reader[models.WebhookEndpoint, op.NoFilter]
	svc *Service
}

// endpointTable reads the endpoints the API manages: not deleted, and not
// a listen session's (those are the CLI's, ListenSessions).
var endpointTable = &op.Table[models.WebhookEndpoint]{Resource: "webhook_endpoint", Allow: managers,
	Where: func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("?TableAlias.deleted IS NULL AND ?TableAlias.kind = ?", models.WebhookEndpointURL)
	}}

// destinationTable reads what deliveries are listed under: the endpoints
// of endpointTable, and listen sessions, live or ended (their deliveries
// and the CLI's acks stay readable).
var destinationTable = &op.Table[models.WebhookEndpoint]{Resource: "webhook_endpoint", Allow: managers,
	Where: func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("?TableAlias.deleted IS NULL OR ?TableAlias.kind = ?", models.WebhookEndpointListenSession)
	}}

func newEndpoints(s *Service) *Endpoints {
	return &Endpoints{Reader: op.Read[models.WebhookEndpoint, op.NoFilter](s.Kit, endpointTable), svc: s}
}
