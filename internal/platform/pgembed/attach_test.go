package pgembed

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParsePIDFile(t *testing.T) {
	pf, err := parsePIDFile("4242\n/data/pg\n1700000000\n54321\n/data/run\n127.0.0.1\n  5432001    131072\nready   \n")
	require.NoError(t, err)
	require.Equal(t, pidFile{
		PID: 4242, DataDir: "/data/pg", Port: 54321, SocketDir: "/data/run",
		ListenAddr: "127.0.0.1", Status: "ready",
	}, pf)

	pf, err = parsePIDFile("4242\n/data/pg\n")
	require.NoError(t, err, "a file still being written has a PID but no status yet")
	require.Equal(t, "", pf.Status)

	_, err = parsePIDFile("")
	require.ErrorIs(t, err, errBadPIDFile)
	_, err = parsePIDFile("garbage\n")
	require.ErrorIs(t, err, errBadPIDFile)
}

func TestHostFor(t *testing.T) {
	require.Equal(t, "127.0.0.1", hostFor("127.0.0.1"))
	require.Equal(t, "127.0.0.1", hostFor("*"))
	require.Equal(t, "127.0.0.1", hostFor(""))
	require.Equal(t, "127.0.0.1", hostFor("localhost"))
	require.Equal(t, "10.1.2.3", hostFor("10.1.2.3"))
}

func TestBuildURL(t *testing.T) {
	require.Equal(t, "postgres://postgres@127.0.0.1:5432/app_test?sslmode=disable", buildURL("127.0.0.1", 5432, "", "app_test"))
	require.Equal(t, "postgres://postgres:0a1b@127.0.0.1:5432/app_test?sslmode=disable", buildURL("127.0.0.1", 5432, "0a1b", "app_test"))
}
