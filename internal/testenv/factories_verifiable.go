package testenv

// VerifiableIndividual is an individual with kyc requested, the terms
// accepted and phone on file: an account an identity run can be started
// for, whose sandbox outcome phone decides (docs/sandbox.md).
func VerifiableIndividual(phone string) AccountSpec {
	return Individual().WithCapabilities("kyc").WithTermsOfService(TermsSpec{Token: "tos"}).
		WithIndividual(func(i *IndividualSpec) { i.Phone = &PhoneSpec{Number: phone} })
}
