// Package phase holds the ordering rules of billing phases (spec doc 2
// §2.4, §4.1, §4.4): ordinals are unique within the parent, and nothing may
// follow a phase that lasts indefinitely.
package phase

import (
	"fmt"
	"sort"
)

// Phase is what the ordering rules look at.
type Phase struct {
	Ordinal int
	// Indefinite is a phase without a period count: it never ends.
	Indefinite bool
}

// Problem is a broken rule and the ordinal it is about.
type Problem struct {
	Ordinal int
	Message string
}

// Check reports every problem of a parent's set of phases, in ordinal
// order: a repeated ordinal, and any phase after an indefinite one.
func Check(phases []Phase) []Problem {
	sorted := append([]Phase(nil), phases...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Ordinal < sorted[j].Ordinal })
	var out []Problem
	indefinite := -1
	for i, p := range sorted {
		if i > 0 && sorted[i-1].Ordinal == p.Ordinal {
			out = append(out, Problem{p.Ordinal, fmt.Sprintf("ordinal %d is already taken", p.Ordinal)})
			continue
		}
		if indefinite >= 0 {
			out = append(out, Problem{p.Ordinal, fmt.Sprintf(
				"no phase can follow the indefinite phase %d (it has no period_count)", indefinite)})
			continue
		}
		if p.Indefinite {
			indefinite = p.Ordinal
		}
	}
	return out
}
