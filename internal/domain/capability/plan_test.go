package capability

import (
	"errors"
	"testing"
)

func TestPlan(t *testing.T) {
	all := AllProducts()
	tests := []struct {
		name      string
		requested []Name
		products  []Product
		disabled  []Name
		want      []Name
		wantErr   error
	}{
		{
			name:      "nothing requested",
			requested: nil,
			products:  all,
			want:      names(),
		},
		{
			name:      "single capability, no dependencies",
			requested: names(KYC),
			products:  []Product{ProductIdentity},
			want:      names(KYC),
		},
		{
			name:      "dependencies are added in catalogue order",
			requested: names(CardReceive),
			products:  all,
			want:      names(KYC, CardVerification, CardReceive),
		},
		{
			name:      "duplicates are fine",
			requested: names(CardSend, CardSend, CardVerification),
			products:  []Product{ProductPayments},
			want:      names(CardVerification, CardSend),
		},
		{
			name:      "(a) explicit name without product",
			requested: names(KYC, CardSend),
			products:  []Product{ProductIdentity},
			wantErr:   &NotProvisionableError{Capability: CardSend, RequiredProduct: ProductPayments},
		},
		{
			name:      "(a) first offending in request order",
			requested: names(KYC, GeoCompliance, CreatorShield),
			products:  []Product{ProductIdentity},
			wantErr:   &NotProvisionableError{Capability: GeoCompliance, RequiredProduct: ProductGeoCompliance},
		},
		{
			name:      "(a) first offending in request order, reversed",
			requested: names(CreatorShield, GeoCompliance),
			products:  []Product{ProductIdentity},
			wantErr:   &NotProvisionableError{Capability: CreatorShield, RequiredProduct: ProductCreatorShield},
		},
		{
			name:      "(a) product check wins over the switched-off skip",
			requested: names(CardSend),
			products:  []Product{ProductIdentity},
			disabled:  names(CardSend),
			wantErr:   &NotProvisionableError{Capability: CardSend, RequiredProduct: ProductPayments},
		},
		{
			name:      "(a) explicit errors are reported before dependency errors",
			requested: names(CardReceive, GeoCompliance),
			products:  []Product{ProductPayments, ProductPayouts},
			wantErr:   &NotProvisionableError{Capability: GeoCompliance, RequiredProduct: ProductGeoCompliance},
		},
		{
			name:      "(b) switched-off request is skipped silently",
			requested: names(KYC, IDV),
			products:  all,
			disabled:  names(IDV),
			want:      names(KYC),
		},
		{
			name:      "(b) switched-off request creates none of its dependencies",
			requested: names(CardReceive),
			products:  all,
			disabled:  names(CardReceive),
			want:      names(),
		},
		{
			name:      "(b) skipped request's dependency is still created when another request needs it",
			requested: names(CardReceive, CardSend),
			products:  all,
			disabled:  names(CardReceive),
			want:      names(CardVerification, CardSend),
		},
		{
			name:      "(b) dependency of a skipped request with a missing product is not checked",
			requested: names(CardReceive),
			products:  []Product{ProductPayouts},
			disabled:  names(CardReceive),
			want:      names(),
		},
		{
			name:      "(c) dependency without product",
			requested: names(CardReceive),
			products:  []Product{ProductPayouts, ProductPayments},
			wantErr:   &NotProvisionableError{Capability: KYC, RequiredProduct: ProductIdentity},
		},
		{
			name:      "(c) dependency errors in request then dependency order",
			requested: names(CreatorShield, CardReceive),
			products:  []Product{ProductCreatorShield, ProductPayouts},
			wantErr:   &NotProvisionableError{Capability: KYC, RequiredProduct: ProductIdentity},
		},
		{
			name:      "(c) second dependency without product",
			requested: names(BankAccountReceive),
			products:  []Product{ProductPayouts, ProductIdentity},
			wantErr:   &NotProvisionableError{Capability: BankAccountVerification, RequiredProduct: ProductPayments},
		},
		{
			name:      "(c) switched-off dependency is skipped",
			requested: names(KYCPrefill),
			products:  all,
			disabled:  names(PhoneVerification),
			want:      names(KYC, KYCPrefill),
		},
		{
			name:      "(c) switched-off dependency is still product-checked",
			requested: names(CardReceive),
			products:  []Product{ProductPayouts, ProductIdentity},
			disabled:  names(CardVerification),
			wantErr:   &NotProvisionableError{Capability: CardVerification, RequiredProduct: ProductPayments},
		},
		{
			name:      "unknown capability",
			requested: names(KYC, "kyc_plus"),
			products:  all,
			wantErr:   &UnknownCapabilityError{Capability: "kyc_plus"},
		},
		{
			name:      "unknown products and switched-off names are ignored",
			requested: names(AgeVerification),
			products:  []Product{"bogus", ProductIdentity},
			disabled:  names("bogus", CardSend),
			want:      names(IDV, AgeVerification),
		},
		{
			name:      "everything",
			requested: AllNames(),
			products:  all,
			want:      AllNames(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(tt.requested, tt.products, tt.disabled)
			equal(t, err, tt.wantErr)
			equal(t, got, tt.want)
		})
	}
}

func TestPlanErrorTypes(t *testing.T) {
	_, err := Plan(names(CardSend), nil, nil)
	var np *NotProvisionableError
	if !errors.As(err, &np) {
		t.Fatalf("want *NotProvisionableError, got %T", err)
	}
	equal(t, np.Capability, CardSend)
	equal(t, np.RequiredProduct, ProductPayments)
	equal(t, err.Error(), `capability "card_send" requires product "payments", which the merchant is not provisioned for`)

	_, err = Plan(names("x"), AllProducts(), nil)
	var uc *UnknownCapabilityError
	if !errors.As(err, &uc) {
		t.Fatalf("want *UnknownCapabilityError, got %T", err)
	}
	equal(t, err.Error(), `unknown capability "x"`)
}
