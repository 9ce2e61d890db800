package models_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/models"
)

// Every reason code's category is one of the declared set, so no dispute
// carries a category GraphQL's enum could not write.
func TestDisputeReasonsHaveDeclaredCategories(t *testing.T) {
	t.Parallel()
	categories, ok := models.EnumValues(reflect.TypeFor[models.DisputeCategory]())
	require.True(t, ok)
	for _, code := range strings.Split(dispute.ReasonList(), ", ") {
		r, ok := dispute.ReasonFor(code)
		require.True(t, ok, code)
		require.True(t, slices.Contains(categories, r.Category), "%s: category %q", code, r.Category)
	}
}
