package models

// AddressType is which of its owner's addresses an address object is.
type AddressType string

// Address types.
const (
	AddressBilling  AddressType = "billing"
	AddressShipping AddressType = "shipping"
)

// AddressTypes is the closed set of address types.
var AddressTypes = Enum(AddressBilling, AddressShipping)
