package catalog

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// storedTerms are the stored phases an update's check can meet, as far as
// it reads them: each pricing type, with a period count and without. An
// update is checked against each before its transaction (op.Settled).
var storedTerms = func() []models.PhaseTerms {
	one := 1
	var out []models.PhaseTerms
	for _, pricing := range []models.PricingType{models.PricingStatic, models.PricingRelative} {
		out = append(out, models.PhaseTerms{PricingType: pricing}, models.PhaseTerms{PricingType: pricing, PeriodCount: &one})
	}
	return out
}()

// checkBefore runs the check of e, an update of one phase whose problems
// are reported at prefix, against every stored phase it may meet
// (storedTerms) and under a parent its check does not read (independent).
// When all give the same problems it adds them to fs and reports true;
// otherwise the answer depends on the stored phase, and the write checks
// e on it inside the transaction.
func (f *phaseFamily[M, R, P, E]) checkBefore(e E, fs *apierr.Fields, prefix string) bool {
	if f.independent != nil && !f.independent(e) {
		return false
	}
	answers := make([]error, len(storedTerms))
	problems := false
	for i, terms := range storedTerms {
		var g apierr.Fields
		f.check(new(P), phaseWith[M, R](terms), e, &g, prefix)
		answers[i] = g.Err()
		problems = problems || answers[i] != nil
	}
	if problems && op.Settled(answers...) == nil {
		return false
	}
	f.check(new(P), phaseWith[M, R](storedTerms[0]), e, fs, prefix)
	return true
}

// phaseWith is a phase with terms t, for checkBefore.
func phaseWith[M any, R phaseRowOf[M]](t models.PhaseTerms) R {
	ph := R(new(M))
	*ph.Terms() = t
	return ph
}

// updateCheck is the Spec.Check of an update of one phase: e's problems
// when no stored phase could change them (checkBefore). Like every write's
// check, it runs before the phase is looked up, so an invalid update of an
// unknown phase is answered 422, not 404.
func (f *phaseFamily[M, R, P, E]) updateCheck(e E) func() error {
	return func() error {
		var fs apierr.Fields
		if !f.checkBefore(e, &fs, "") {
			return nil
		}
		return fs.Err()
	}
}

// bulkCheck is the Spec.Check of a bulk update: validate's answer on the
// request as a whole, then each entry's problems when no stored phase
// could change them, as in the transaction (bulkUpdate). An id that is
// not a phase id names no phase whatever is stored; whether a well-formed
// one names a phase of the parent is known only in the transaction, as a
// single update's phase is looked up after its check: a request refused
// here lists its entries' other problems, and one without them is told
// there which ids name no phase. An id listed twice also goes in, where
// it is told apart from an id that names no phase.
func (f *phaseFamily[M, R, P, E]) bulkCheck(entries []E, validate func() error) func() error {
	return func() error {
		if validate != nil {
			if err := validate(); err != nil {
				return err
			}
		}
		var fs apierr.Fields
		named := map[string]bool{}
		complete := f.eachEntry(entries, &fs, func(path, id string, e E) bool {
			if !isPhaseID(id) {
				fs.Add(path+"id", "is not a phase of this "+f.parents.Resource)
				return true
			}
			if named[id] || !f.checkBefore(e, &fs, path) {
				return false
			}
			named[id] = true
			return true
		})
		if !complete {
			return nil
		}
		return fs.Err()
	}
}

// eachEntry walks the entries of a bulk update in order, before the
// transaction and in it alike: a missing list and an entry without an id
// are reported into fs, and visit is given each other entry with its
// path ("phases.2.") and id. visit returns false to stop the walk, and
// eachEntry then returns false.
func (f *phaseFamily[M, R, P, E]) eachEntry(entries []E, fs *apierr.Fields, visit func(path, id string, e E) bool) bool {
	if entries == nil {
		fs.Add("phases", "is required")
	}
	for i, e := range entries {
		path := fmt.Sprintf("phases.%d.", i)
		id := f.id(e)
		if id == nil {
			fs.Add(path+"id", "is required")
			continue
		}
		if !visit(path, *id, e) {
			return false
		}
	}
	return true
}

// isPhaseID tells whether id could name a phase: a phase's id is its
// UUID's canonical text (find compares with it).
func isPhaseID(id string) bool {
	u, err := uuid.Parse(id)
	return err == nil && u.String() == id
}
