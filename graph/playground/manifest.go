package playground

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Manifest is vendored/MANIFEST.json, written by `make vendor-playground`:
// what was brought in from the npm registry, at which version, and the
// sha256 of every file taken from it.
type Manifest struct {
	Packages []ManifestPackage `json:"packages"`
}

// ManifestPackage is one npm package and the files taken from it.
type ManifestPackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Integrity is the sha512 of the package's tarball, as npm writes it.
	Integrity string         `json:"integrity"`
	License   string         `json:"license"`
	Files     []ManifestFile `json:"files"`
	// BundledLicenses, for a build that bundles other packages, is the
	// text of their licences.
	BundledLicenses *BundledLicenses `json:"bundled_licenses,omitempty"`
}

// BundledLicenses is one file, in vendored/, of the licence texts of the
// packages a build bundles (as its source map names them), at the versions
// of scripts/playground-bundled/package-lock.json, whose sha256 it records.
type BundledLicenses struct {
	Path           string `json:"path"`
	Bytes          int64  `json:"bytes"`
	SHA256         string `json:"sha256"`
	LockfileSHA256 string `json:"lockfile_sha256"`
	Packages       []struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		License string `json:"license"`
	} `json:"packages"`
}

// ManifestFile is one file copied from a package.
type ManifestFile struct {
	// Path is the file's path in vendored/.
	Path string `json:"path"`
	// From is its path in the package.
	From   string `json:"from"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// LicenseFile is the package's licence text among its files: the one
// under licenses/.
func (p ManifestPackage) LicenseFile() (string, bool) {
	for _, f := range p.Files {
		if strings.HasPrefix(f.Path, "licenses/") {
			return f.Path, true
		}
	}
	return "", false
}

// ReadManifest reads the embedded manifest.
func ReadManifest() (Manifest, error) {
	var m Manifest
	b, err := fs.ReadFile(files, path.Join(vendoredDir, manifestName))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("playground: %s: %w", manifestName, err)
	}
	return m, nil
}
