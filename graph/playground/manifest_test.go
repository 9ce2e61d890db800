package playground

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pagesOwnFiles are the embedded files the project writes itself; every
// other embedded file was vendored and is in the manifest.
var pagesOwnFiles = []string{"page/index.html", "page/playground.css", "page/playground.js"}

// The manifest accounts for every embedded file: each vendored file is
// listed once with its size and sha256, and nothing else is embedded but
// the manifest and the page's own files.
func TestManifestCoversEveryEmbeddedFile(t *testing.T) {
	t.Parallel()
	m, err := ReadManifest()
	require.NoError(t, err)
	listed := map[string]ManifestFile{}
	for _, p := range m.Packages {
		require.NotEmpty(t, p.Files, p.Name)
		for _, f := range p.Files {
			_, dup := listed[f.Path]
			require.False(t, dup, "%s listed twice", f.Path)
			listed[f.Path] = f
		}
		if b := p.BundledLicenses; b != nil {
			require.NotEmpty(t, b.Packages, p.Name)
			listed[b.Path] = ManifestFile{Path: b.Path, Bytes: b.Bytes, SHA256: b.SHA256}
		}
	}

	var own []string
	err = fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		dir, rest, _ := strings.Cut(name, "/")
		switch {
		case dir == pageDir:
			own = append(own, name)
		case rest == manifestName:
		default:
			f, ok := listed[rest]
			require.True(t, ok, "%s is embedded but not in the manifest", name)
			delete(listed, rest)
			body, err := fs.ReadFile(files, name)
			require.NoError(t, err)
			sum := sha256.Sum256(body)
			require.Equal(t, f.SHA256, hex.EncodeToString(sum[:]), "sha256 of %s", name)
			require.Equal(t, f.Bytes, int64(len(body)), "size of %s", name)
		}
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, listed, "listed in the manifest but not embedded")
	slices.Sort(own)
	require.Equal(t, pagesOwnFiles, own, "the page's own files")
}

// The vendoring is repeatable: the committed manifest records exactly the
// packages, versions, tarball integrities, licences and files that
// scripts/playground-packages.json pins for `make vendor-playground`, so
// running it again can only bring in the same bytes (the script refuses a
// tarball whose sha512 differs from the pin, and takes bundled packages'
// licences from the tree of the committed lockfile), which the test above
// checks against the committed files.
func TestManifestMatchesThePinnedPackages(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(path.Join("..", "..", "scripts", "playground-packages.json"))
	require.NoError(t, err)
	var pins struct {
		Packages []struct {
			Name, Version, Integrity, License string
			Files                             map[string]string
			BundledLicenses                   *struct{ Path string } `json:"bundled_licenses"`
		}
	}
	require.NoError(t, json.Unmarshal(b, &pins))
	m, err := ReadManifest()
	require.NoError(t, err)

	type pkg struct {
		Name, Version, Integrity, License string
		Files                             map[string]string // from -> path
		BundledLicenses                   string            // path
	}
	var pinned, recorded []pkg
	for _, p := range pins.Packages {
		var bundled string
		if p.BundledLicenses != nil {
			bundled = p.BundledLicenses.Path
		}
		pinned = append(pinned, pkg{p.Name, p.Version, p.Integrity, p.License, p.Files, bundled})
	}
	lockfile, err := os.ReadFile(path.Join("..", "..", "scripts", "playground-bundled", "package-lock.json"))
	require.NoError(t, err)
	lockSum := sha256.Sum256(lockfile)
	for _, p := range m.Packages {
		files := map[string]string{}
		for _, f := range p.Files {
			files[f.From] = f.Path
		}
		var bundled string
		if b := p.BundledLicenses; b != nil {
			bundled = b.Path
			require.Equal(t, hex.EncodeToString(lockSum[:]), b.LockfileSHA256,
				"the bundled licences were taken from the committed lockfile's tree")
		}
		recorded = append(recorded, pkg{p.Name, p.Version, p.Integrity, p.License, files, bundled})
	}
	byName := func(a, b pkg) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(pinned, byName)
	require.Equal(t, pinned, recorded, "the manifest (sorted by name) records what is pinned")
	for _, p := range m.Packages {
		_, ok := p.LicenseFile()
		require.True(t, ok, "%s comes with its licence text", p.Name)
	}
}
