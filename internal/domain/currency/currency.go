// Package currency is the list of currencies the API accepts: the ISO 4217
// codes of currencies in circulation that the sandbox card processor
// settles in. A three-letter code outside it (ABC, or XAU, a metal, or XTS,
// the testing code) is refused at the input, before it reaches a charge,
// a coupon or the ledger.
package currency

import "strings"

// Problem is the one message every currency parameter answers with when
// its value is not in the list.
const Problem = "must be a supported ISO 4217 currency code, such as USD"

// supported holds the ISO 4217 codes of currencies in circulation (list
// one of the standard), without its funds codes (BOV, CHE, CHW, CLF, COU,
// MXV, USN, UYI, UYW), precious metals, units of account and testing codes
// (XAU, XAG, XPD, XPT, XDR, XSU, XUA, XBA-XBD, XTS, XXX): the processor
// settles in none of those.
var supported = set(`
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL
BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP
ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR
IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL
LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD
SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX
USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
`)

func set(codes string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, c := range strings.Fields(codes) {
		out[c] = struct{}{}
	}
	return out
}

// Supported reports whether code, in any case, is a currency the API
// accepts.
func Supported(code string) bool {
	if len(code) != 3 {
		return false
	}
	_, ok := supported[strings.ToUpper(code)]
	return ok
}
