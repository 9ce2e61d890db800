package playground

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
)

// files holds everything the playground serves: vendored/ the browser
// builds brought in from npm by `make vendor-playground` (with their
// licences and MANIFEST.json), page/ the page's own HTML, script and style.
//
//go:embed vendored page
var files embed.FS

// Folders of files.
const (
	vendoredDir  = "vendored"
	pageDir      = "page"
	manifestName = "MANIFEST.json"
	pageTemplate = "index.html"
)

// contentTypes are the types of what the playground serves, by extension;
// an embedded file of another kind is a build mistake, refused at start.
var contentTypes = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".json": "application/json",
}

// asset is one file served at <base>/assets/<version>/<name>. Its version
// is a prefix of its content's sha256, so the URL changes whenever the
// bytes do and browsers may keep a copy for as long as they like.
type asset struct {
	name        string // path below its folder, e.g. "licenses/react.LICENSE.txt"
	body        []byte
	contentType string
	sha256      string // hex
}

// versionLen is how much of the sha256 names a version: 64 bits are more
// than enough to tell a handful of files' revisions apart.
const versionLen = 16

func (a asset) version() string { return a.sha256[:versionLen] }

// path is the asset's URL path below base.
func (a asset) path(base string) string {
	return base + "/assets/" + a.version() + "/" + a.name
}

// loadAssets reads every embedded file but the page template, keyed by
// name; names are unique across the two folders.
func loadAssets() (map[string]asset, error) {
	assets := map[string]asset{}
	for _, dir := range []string{vendoredDir, pageDir} {
		sub, err := fs.Sub(files, dir)
		if err != nil {
			return nil, err
		}
		err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (dir == pageDir && name == pageTemplate) {
				return err
			}
			body, err := fs.ReadFile(sub, name)
			if err != nil {
				return err
			}
			ct, ok := contentTypes[path.Ext(name)]
			if !ok {
				return fmt.Errorf("playground: no content type for %s/%s", dir, name)
			}
			if _, dup := assets[name]; dup {
				return fmt.Errorf("playground: %s is both vendored and the page's own", name)
			}
			sum := sha256.Sum256(body)
			assets[name] = asset{name: name, body: body, contentType: ct, sha256: hex.EncodeToString(sum[:])}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return assets, nil
}
