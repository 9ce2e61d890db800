package accounts

import (
	"slices"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// capabilitiesOfAccount are an account's capabilities, read in the
// account's own statement (op.Embed): an account with its capabilities is
// one statement, for one account or a page of them. They come in no
// particular order and hydrate puts them in the catalogue's (an ORDER BY
// inside the aggregate costs more than the rest of it). Writes do not use
// it: see lockAccount.
var capabilitiesOfAccount = &op.Embed[models.Account, models.Capability]{Column: "account_id", As: "capabilities_json",
	Into: func(a *models.Account) *[]*models.Capability { return &a.Capabilities }}

// catalogueRank orders capabilities as the catalogue lists them; a name
// the catalogue does not know goes last (as array_position's NULL did).
var catalogueRank = func() map[capability.Name]int {
	m := map[capability.Name]int{}
	for i, n := range capability.AllNames() {
		m[n] = i + 1
	}
	return m
}()

func rank(n capability.Name) int {
	if r, ok := catalogueRank[n]; ok {
		return r
	}
	return len(catalogueRank) + 1
}

// inCatalogueOrder sorts capabilities as the catalogue lists them.
func inCatalogueOrder(caps []*models.Capability) {
	slices.SortFunc(caps, func(x, y *models.Capability) int { return rank(x.Name) - rank(y.Name) })
}
