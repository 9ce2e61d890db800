package models

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An account's short form is named after its business's legal name, else
// its individual's names, as the SDK reads it; an invoice derives its
// payer's from the payer's model.
func TestPayerRefIsDerivedFromThePayer(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		profile Profile
		want    *string
	}{
		{Profile{Business: &BusinessProfile{LegalBusinessName: s("Acme")}, Individual: &IndividualProfile{Name: &PersonName{FirstName: s("A")}}}, s("Acme")},
		{Profile{Individual: &IndividualProfile{Name: &PersonName{FirstName: s("Ada"), LastName: s("Lovelace")}}}, s("Ada Lovelace")},
		{Profile{Individual: &IndividualProfile{Name: &PersonName{LastName: s("Lovelace")}}}, s("Lovelace")},
		{Profile{Individual: &IndividualProfile{Name: &PersonName{}}}, nil},
		{Profile{Business: &BusinessProfile{}}, nil},
		{Profile{}, nil},
	} {
		a := &Account{Profile: tc.profile}
		require.Equal(t, &PayerRef{Object: "account", Name: tc.want}, a.Ref())
	}
	c := &Customer{Name: s("Bo"), Email: "bo@example.com"}
	require.Equal(t, &PayerRef{Object: "customer", Name: s("Bo"), Email: s("bo@example.com")}, c.Ref())
	biz := &Account{Profile: Profile{Business: &BusinessProfile{Email: s("ops@acme.test")},
		Individual: &IndividualProfile{Email: s("ada@acme.test")}}}
	require.Equal(t, s("ops@acme.test"), biz.Ref().Email, "the business's email before its person's")
	person := &Account{Profile: Profile{Individual: &IndividualProfile{Email: s("ada@acme.test")}}}
	require.Equal(t, s("ada@acme.test"), person.Ref().Email)

	inv := &Invoice{PayerCustomer: c}
	inv.Derive()
	require.Equal(t, c.Ref(), inv.Customer)
	require.Nil(t, inv.Account)
	require.Equal(t, []*InvoiceLineItem{}, inv.LineItems)
}
