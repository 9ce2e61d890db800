package seed

import (
	"fmt"
	"slices"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// What the data set asks of the merchant: the products of the capabilities
// its accounts request, and those capabilities switched on. A merchant
// without them is refused before anything is written, rather than left
// with half a data set.
var (
	neededProducts     = []capability.Product{capability.ProductIdentity, capability.ProductPayments, capability.ProductPayouts}
	neededCapabilities = []capability.Name{capability.KYC, capability.KYB, capability.CardVerification,
		capability.CardSend, capability.CardReceive}
)

// fits refuses a merchant the data set cannot be written for.
func fits(m *auth.Merchant) error {
	var missing []string
	for _, p := range neededProducts {
		if !slices.Contains(m.Products, string(p)) {
			missing = append(missing, "product "+string(p))
		}
	}
	for _, c := range neededCapabilities {
		if slices.Contains(m.DisabledCapabilities, string(c)) {
			missing = append(missing, "capability "+string(c)+" (switched off)")
		}
	}
	if missing != nil {
		return fmt.Errorf("the sample data needs what merchant %s lacks: %s", m.ID, strings.Join(missing, ", "))
	}
	return nil
}
