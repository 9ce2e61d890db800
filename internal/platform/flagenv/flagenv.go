// Package flagenv registers command-line flags whose defaults come from
// environment variables, the way every setting of the server is given: a
// flag wins over its variable, and a variable that does not parse is an
// error (a typo must not silently fall back to a default).
package flagenv

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"
)

// Set registers flags on a flag set, reading defaults from getenv (for
// example os.Getenv).
type Set struct {
	fs     *flag.FlagSet
	getenv func(string) string
	errs   []error
}

// New returns a Set over fs.
func New(fs *flag.FlagSet, getenv func(string) string) *Set {
	return &Set{fs: fs, getenv: getenv}
}

// Int registers an int flag; its default is env's value when set, else *p.
func (s *Set) Int(p *int, name, env, usage string) {
	fromEnv(s, p, env, strconv.Atoi)
	s.fs.IntVar(p, name, *p, usage+" (env "+env+")")
}

// Float registers a float64 flag like Int.
func (s *Set) Float(p *float64, name, env, usage string) {
	fromEnv(s, p, env, func(v string) (float64, error) { return strconv.ParseFloat(v, 64) })
	s.fs.Float64Var(p, name, *p, usage+" (env "+env+")")
}

// Duration registers a time.Duration flag like Int.
func (s *Set) Duration(p *time.Duration, name, env, usage string) {
	fromEnv(s, p, env, time.ParseDuration)
	s.fs.DurationVar(p, name, *p, usage+" (env "+env+")")
}

// Bool registers a bool flag like Int.
func (s *Set) Bool(p *bool, name, env, usage string) {
	fromEnv(s, p, env, strconv.ParseBool)
	s.fs.BoolVar(p, name, *p, usage+" (env "+env+")")
}

// Err reports every environment variable that did not parse.
func (s *Set) Err() error { return errors.Join(s.errs...) }

func fromEnv[T any](s *Set, p *T, env string, parse func(string) (T, error)) {
	v := s.getenv(env)
	if v == "" {
		return
	}
	got, err := parse(v)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s: %w", env, err))
		return
	}
	*p = got
}

// Default sets *p to def when *p is zero or negative: the rule of every
// size, count and interval setting, whose zero value (or a nonsensical
// negative one) means "the default".
func Default[T ~int | ~int64](p *T, def T) {
	if *p <= 0 {
		*p = def
	}
}
