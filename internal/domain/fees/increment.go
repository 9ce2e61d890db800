package fees

// Increment is what capturing more of an authorization adds: the quote of
// everything captured so far (total) less the quote of what had been
// captured before (previous), member by member. Pricing each capture on
// the running total, rather than on its own amount, keeps a plan's fixed
// part charged once and the fees of several partial captures equal to the
// fees of one capture of their sum.
func Increment(total, previous Quote) Quote {
	return Quote{
		Amount:      total.Amount - previous.Amount,
		PlatformFee: total.PlatformFee - previous.PlatformFee,
		FrameFee:    total.FrameFee - previous.FrameFee,
		TotalFees:   total.TotalFees - previous.TotalFees,
		GrossAmount: total.GrossAmount - previous.GrossAmount,
		NetAmount:   total.NetAmount - previous.NetAmount,
		MerchantFee: total.MerchantFee - previous.MerchantFee,
	}
}
