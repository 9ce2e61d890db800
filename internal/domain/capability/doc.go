// Package capability is the single source of truth for the capability
// catalogue and the rules that derive capability state.
//
// The operation layer loads facts from the database, calls the pure
// functions in this package and persists or returns the results. Nothing
// here touches a database, a clock or any other I/O, so every rule can be
// pinned down by table tests and reused identically by the REST handlers,
// account creation and background re-evaluation. Keeping the rules in one
// place is what guarantees that "what is due", "what may be disabled" and
// "what the onboarding steps show" never disagree with each other.
//
// The package is split by concern:
//
//   - catalog.go: names, products, statuses and request-time dependencies.
//   - plan.go: turning a capability request into the set of rows to ensure.
//   - dependents.go: which live capabilities block disabling another one.
//   - requirements.go: currently_due / errors / activation of one capability.
//   - steps.go: the account's onboarding steps derived from requirements.
//   - account_status.go: the account-level status and blocked reason.
package capability
