package pgembed

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// superuser is the bootstrap superuser created by initdb -U. It
// authenticates with the data dir's generated password (see auth.go).
const superuser = "postgres"

func buildURL(host string, port int, password, database string) string {
	user := url.User(superuser)
	if password != "" {
		user = url.UserPassword(superuser, password)
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     user,
		Host:     net.JoinHostPort(host, strconv.Itoa(port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// probe connects to the server, makes sure the "postgres" database exists
// (callers connect to it to create their own databases; it exists after
// initdb, but someone may have dropped it) and returns the data directory
// the server reports, which lets attach verify it found the right server.
func probe(ctx context.Context, host string, port int, password string) (dataDir string, err error) {
	conn, err := pgx.Connect(ctx, buildURL(host, port, password, "postgres"))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "3D000" { // invalid_catalog_name
		if err := createPostgresDB(ctx, host, port, password); err != nil {
			return "", err
		}
		conn, err = pgx.Connect(ctx, buildURL(host, port, password, "postgres"))
	}
	if err != nil {
		return "", err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	if err := conn.QueryRow(ctx, "SHOW data_directory").Scan(&dataDir); err != nil {
		return "", fmt.Errorf("query data_directory: %w", err)
	}
	return dataDir, nil
}

func createPostgresDB(ctx context.Context, host string, port int, password string) error {
	conn, err := pgx.Connect(ctx, buildURL(host, port, password, "template1"))
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE postgres"); err != nil {
		return fmt.Errorf("create database postgres: %w", err)
	}
	return nil
}
