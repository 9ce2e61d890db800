package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// UniqueViolation returns the violated constraint's name when err is a unique
// violation, so callers can turn a race lost at the database into the same
// validation error a pre-check would have given.
func UniqueViolation(err error) (constraint string, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return pgErr.ConstraintName, true
	}
	return "", false
}

// ForeignKeyViolation reports whether err is a foreign key violation.
func ForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}

// CheckViolation returns the violated constraint's name when err is a
// check violation (a CHECK constraint, or a trigger raising one).
func CheckViolation(err error) (constraint string, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23514" {
		return pgErr.ConstraintName, true
	}
	return "", false
}
