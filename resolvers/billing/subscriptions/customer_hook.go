package subscriptions

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// customerHook is the area's reaction to changes of the catalog's
// customers, registered on catalog.Customers.Hooks when the services are
// assembled (areas.New): a deleted customer's running subscriptions are
// canceled in the write deleting it (Subscriptions.CancelOfCustomer), so
// the deletion and its cancellations commit together.
type customerHook struct{ ss *Subscriptions }

// CustomerHook is what the area registers on the catalog's customers.
func (s *Service) CustomerHook() op.Hook[models.Customer] { return customerHook{s.Subscriptions} }

func (h customerHook) PreDelete(ctx context.Context, w *op.W, c *models.Customer) error {
	return h.ss.CancelOfCustomer(ctx, w, c.ID)
}
