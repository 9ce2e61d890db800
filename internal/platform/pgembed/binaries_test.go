package pgembed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFindBinariesHonoursPGBinDir(t *testing.T) {
	t.Setenv("PG_BINDIR", "")
	real, err := FindBinaries()
	require.NoError(t, err, "PostgreSQL must be installed to run these tests")

	dir := t.TempDir()
	for _, name := range []string{"initdb", "postgres"} {
		target, err := filepath.EvalSymlinks(filepath.Join(real.Dir, name))
		require.NoError(t, err)
		require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	}
	t.Setenv("PG_BINDIR", dir)
	got, err := FindBinaries()
	require.NoError(t, err)
	require.Equal(t, Binaries{Dir: dir, Initdb: filepath.Join(dir, "initdb"), Postgres: filepath.Join(dir, "postgres")}, got)
}

func TestFindBinariesRejectsBadPGBinDir(t *testing.T) {
	t.Setenv("PG_BINDIR", t.TempDir())
	_, err := FindBinaries()
	require.ErrorContains(t, err, "PG_BINDIR")
}

func TestDebianBinDirsNewestFirst(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"9.6", "15", "common", "16", "10"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, v, "bin"), 0o755))
	}
	old := debianPGRoot
	debianPGRoot = root
	t.Cleanup(func() { debianPGRoot = old })

	require.Equal(t, []string{
		filepath.Join(root, "16", "bin"),
		filepath.Join(root, "15", "bin"),
		filepath.Join(root, "10", "bin"),
		filepath.Join(root, "9.6", "bin"),
	}, debianBinDirs())
}

func TestNoPostgresErrorExplainsFix(t *testing.T) {
	require.Contains(t, ErrNoPostgres.Error(), "apt-get install -y postgresql")
	require.Contains(t, ErrNoPostgres.Error(), "DATABASE_URL")
}
