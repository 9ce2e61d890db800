package capability

// Name identifies a capability. It is a distinct string type so that a
// free-form string from a request body cannot reach the rules without first
// going through ParseName.
type Name string

// The capability catalogue. The declaration order is the catalogue order
// returned by AllNames and used for every deterministic output of this
// package, so API responses do not depend on map iteration or request order.
const (
	KYC                     Name = "kyc"
	KYB                     Name = "kyb"
	PhoneVerification       Name = "phone_verification"
	KYCPrefill              Name = "kyc_prefill"
	IDV                     Name = "idv"
	AgeVerification         Name = "age_verification"
	AddressVerification     Name = "address_verification"
	CardVerification        Name = "card_verification"
	BankAccountVerification Name = "bank_account_verification"
	CreatorShield           Name = "creator_shield"
	GeoCompliance           Name = "geo_compliance"
	CardSend                Name = "card_send"
	CardReceive             Name = "card_receive"
	BankAccountSend         Name = "bank_account_send"
	BankAccountReceive      Name = "bank_account_receive"
)

// Product is a commercial product a merchant is provisioned for. A merchant
// may only request capabilities covered by a product it holds.
type Product string

// The product catalogue, in the order returned by AllProducts.
const (
	ProductIdentity      Product = "identity"
	ProductPayments      Product = "payments"
	ProductPayouts       Product = "payouts"
	ProductGeoCompliance Product = "geo_compliance"
	ProductCreatorShield Product = "creator_shield"
)

// Status is the lifecycle status of one capability on one account.
type Status string

const (
	// StatusUnrequested is the status of a capability that has no row on the
	// account. A capability missing from a status map is treated the same.
	StatusUnrequested Status = "unrequested"
	// StatusPending means the capability was requested and its requirements
	// are being pursued.
	StatusPending Status = "pending"
	// StatusActive means the capability's requirements were met once. It is
	// sticky: re-evaluation never takes it away (see NextStatus).
	StatusActive Status = "active"
	// StatusDisabled means the capability was switched off; nothing is
	// pursued for it.
	StatusDisabled Status = "disabled"
)

// entry is one row of the catalogue. Products and dependencies live in a
// single table so that adding a capability is one edit, and a capability
// can never exist without a product.
type entry struct {
	name    Name
	product Product
	// deps are the direct request-time dependencies: requesting name also
	// creates these, because name's requirements cannot be met without them
	// (e.g. a card cannot be sent to before it has been verified).
	deps []Name
}

var catalogue = []entry{
	{name: KYC, product: ProductIdentity},
	{name: KYB, product: ProductIdentity},
	{name: PhoneVerification, product: ProductIdentity},
	{name: KYCPrefill, product: ProductIdentity, deps: []Name{KYC, PhoneVerification}},
	{name: IDV, product: ProductIdentity},
	{name: AgeVerification, product: ProductIdentity, deps: []Name{IDV}},
	{name: AddressVerification, product: ProductIdentity, deps: []Name{KYC}},
	{name: CardVerification, product: ProductPayments},
	{name: BankAccountVerification, product: ProductPayments},
	{name: CreatorShield, product: ProductCreatorShield, deps: []Name{KYC}},
	{name: GeoCompliance, product: ProductGeoCompliance},
	{name: CardSend, product: ProductPayments, deps: []Name{CardVerification}},
	{name: CardReceive, product: ProductPayouts, deps: []Name{KYC, CardVerification}},
	{name: BankAccountSend, product: ProductPayments, deps: []Name{BankAccountVerification}},
	{name: BankAccountReceive, product: ProductPayouts, deps: []Name{KYC, BankAccountVerification}},
}

var allProducts = []Product{
	ProductIdentity,
	ProductPayments,
	ProductPayouts,
	ProductGeoCompliance,
	ProductCreatorShield,
}

// catalogueIndex maps a name to its position in catalogue; it doubles as the
// membership test and the sort key for catalogue order.
var catalogueIndex = func() map[Name]int {
	m := make(map[Name]int, len(catalogue))
	for i, e := range catalogue {
		m[e.name] = i
	}
	return m
}()

// AllNames returns every capability in catalogue order. The slice is a
// fresh copy; callers may modify it.
func AllNames() []Name {
	out := make([]Name, len(catalogue))
	for i, e := range catalogue {
		out[i] = e.name
	}
	return out
}

// ParseName converts an external string into a Name. Matching is exact
// (case-sensitive, no trimming) because capability names are API
// identifiers; being lenient here would let two spellings of one capability
// reach the database.
func ParseName(s string) (Name, bool) {
	n := Name(s)
	if _, ok := catalogueIndex[n]; !ok {
		return "", false
	}
	return n, true
}

// Valid reports whether n is in the catalogue.
func (n Name) Valid() bool {
	_, ok := catalogueIndex[n]
	return ok
}

// AllProducts returns every product in a fixed order. The slice is a fresh
// copy.
func AllProducts() []Product {
	return append([]Product(nil), allProducts...)
}

// ParseProduct converts an external string into a Product, exactly like
// ParseName (case-sensitive, no trimming).
func ParseProduct(s string) (Product, bool) {
	for _, p := range allProducts {
		if string(p) == s {
			return p, true
		}
	}
	return "", false
}

// RequiredProduct returns the product a merchant must hold to provision
// capability n, or "" when n is not in the catalogue.
func RequiredProduct(n Name) Product {
	i, ok := catalogueIndex[n]
	if !ok {
		return ""
	}
	return catalogue[i].product
}

// DirectDependencies returns the capabilities that requesting n also
// creates, without following chains (see Expand for the closure). It returns
// an empty slice for capabilities without dependencies and for unknown names.
func DirectDependencies(n Name) []Name {
	i, ok := catalogueIndex[n]
	if !ok {
		return []Name{}
	}
	return append([]Name{}, catalogue[i].deps...)
}

// ParseStatus converts an external string into a Status.
func ParseStatus(s string) (Status, bool) {
	switch st := Status(s); st {
	case StatusUnrequested, StatusPending, StatusActive, StatusDisabled:
		return st, true
	}
	return "", false
}

// live reports whether a capability in status s is being pursued or is in
// use. Live capabilities are the ones that block disabling their
// dependencies and that contribute onboarding steps.
func (s Status) live() bool {
	return s == StatusPending || s == StatusActive
}

// Expand returns the requested names plus all of their transitive
// dependencies, deduplicated and in catalogue order. Catalogue order (rather
// than request order) makes the result independent of how the caller listed
// or repeated names. Names that are not in the catalogue are dropped: they
// have no dependencies and no product, and callers are expected to reject
// them with ParseName before planning.
func Expand(requested []Name) []Name {
	seen := make(map[Name]bool, len(catalogue))
	var visit func(Name)
	visit = func(n Name) {
		if seen[n] || !n.Valid() {
			return
		}
		seen[n] = true
		for _, d := range catalogue[catalogueIndex[n]].deps {
			visit(d)
		}
	}
	for _, n := range requested {
		visit(n)
	}
	return inCatalogueOrder(seen)
}

// inCatalogueOrder returns the members of set in catalogue order, always as a
// non-nil slice so that it marshals as [] rather than null.
func inCatalogueOrder(set map[Name]bool) []Name {
	out := make([]Name, 0, len(set))
	for _, e := range catalogue {
		if set[e.name] {
			out = append(out, e.name)
		}
	}
	return out
}
