package funding_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/resolvers/funding"
)

// Every event the area emits is in the webhook catalogue (which
// docs/webhooks.md lists, checked by the webhook package's tests), so
// endpoints can subscribe to it.
func TestTheCatalogueListsTheAreasEvents(t *testing.T) {
	for _, typ := range funding.Events {
		require.True(t, webhook.Known(typ), "%s is missing from the webhook catalogue", typ)
	}
}
