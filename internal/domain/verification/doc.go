// Package verification holds the sandbox providers of account-holder
// verification as pure rules: which outcome an identity run, a KYC prefill,
// a phone OTP or a bank-linking token has, decided by the documented magic
// values (API-DECISIONS §6, docs/sandbox.md) and nothing else. The
// operation layer stores and times the outcomes; these functions only
// decide them, deterministically.
package verification
