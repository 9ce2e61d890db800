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

// IsLockConflict reports whether err is PostgreSQL giving up on a
// transaction because of another one: a deadlock (40P01), a serialization
// failure (40001) or a lock it could not take (55P03). The transaction was
// rolled back whole; the same request run again can succeed.
func IsLockConflict(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Code {
	case "40P01", "40001", "55P03":
		return true
	}
	return false
}
