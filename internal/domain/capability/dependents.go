package capability

// dependents is the reverse of the request-time dependency graph: for each
// capability, the capabilities that list it as a direct dependency.
var dependents = func() map[Name][]Name {
	m := make(map[Name][]Name, len(catalogue))
	for _, e := range catalogue {
		for _, d := range e.deps {
			m[d] = append(m[d], e.name)
		}
	}
	return m
}()

// LiveDependents returns the capabilities that depend on target, directly or
// through a chain, and whose status is pending or active, in catalogue order
// (never nil). Disabling target is refused while this is non-empty: a live
// capability was created because it needs target, and pulling target out
// from under it would leave it unable to ever be satisfied (or, if active,
// operating without the check it relies on).
//
// The walk mirrors Expand exactly, so "what requesting X creates" and "what
// blocks disabling X" are the same relation seen from opposite ends. The
// chain is followed through intermediate capabilities whatever their status:
// if A depends on B and B on target, a live A blocks target even when B is
// disabled or unrequested, because A still (transitively) relies on target.
// Capabilities missing from statuses count as unrequested.
func LiveDependents(target Name, statuses map[Name]Status) []Name {
	live := make(map[Name]bool)
	for n := range upstream(target, dependents) {
		if statuses[n].live() {
			live[n] = true
		}
	}
	return inCatalogueOrder(live)
}

// upstream returns every capability that reaches target through rev (a
// reverse dependency graph), excluding target itself. It takes the graph as
// a parameter so the chain-following can be tested on graphs deeper than
// today's catalogue.
func upstream(target Name, rev map[Name][]Name) map[Name]bool {
	seen := make(map[Name]bool)
	var walk func(Name)
	walk = func(n Name) {
		for _, up := range rev[n] {
			if seen[up] || up == target {
				continue
			}
			seen[up] = true
			walk(up)
		}
	}
	walk(target)
	return seen
}
