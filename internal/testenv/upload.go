package testenv

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
)

// Part is one part of a multipart/form-data body.
type Part struct {
	Field       string
	FileName    string // "" sends a part without a file name
	ContentType string // "" sends none
	Body        []byte
}

// Multipart builds a multipart/form-data body and its Content-Type.
func Multipart(parts ...Part) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disposition := `form-data; name="` + p.Field + `"`
		if p.FileName != "" {
			disposition += `; filename="` + p.FileName + `"`
		}
		h.Set("Content-Disposition", disposition)
		if p.ContentType != "" {
			h.Set("Content-Type", p.ContentType)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			panic(err)
		}
		_, _ = w.Write(p.Body)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// Upload posts parts as multipart/form-data, with header's other members.
func (c *Client) Upload(path string, header http.Header, parts ...Part) *Response {
	body, contentType := Multipart(parts...)
	h := http.Header{"Content-Type": {contentType}}
	for k, v := range header {
		h[k] = v
	}
	return c.Do(http.MethodPost, path, body, h)
}

// Sample document contents: the first bytes of each accepted type.
var (
	JPEG = append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F'}, bytes.Repeat([]byte{1}, 64)...)
	PNG  = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{2}, 64)...)
	PDF  = []byte("%PDF-1.7\n%fake document\n")
)

// IdentityDocuments are a complete, valid set: the ID's two sides and a
// selfie.
func IdentityDocuments() []Part {
	return []Part{
		{Field: "id_front", FileName: "front.jpg", ContentType: "image/jpeg", Body: JPEG},
		{Field: "id_back", FileName: "back.pdf", ContentType: "application/pdf", Body: PDF},
		{Field: "selfie", FileName: "selfie.png", ContentType: "image/png", Body: PNG},
	}
}
