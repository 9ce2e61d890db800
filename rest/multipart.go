package rest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
)

// Codes of multipart requests.
const (
	codeUnsupportedMediaType = "unsupported_media_type"
	codeInvalidMultipart     = "invalid_multipart"
	codeRequestTooLarge      = "request_too_large"
)

// readDocuments reads an upload's multipart/form-data body part by part as
// it arrives, never holding a document: each part goes through
// models.ReadDocument (a digest and its first bytes), so memory stays a
// few kilobytes whatever is sent. Bounds: the whole body at
// models.MaxUploadBytes (400 request_too_large past it), a document at
// models.MaxDocumentBytes (read no further; its problem is reported with
// the others), models.MaxDocumentsPerUpload parts (the rest is not read).
// A body of another type is 415 unsupported_media_type; one that is not
// valid multipart, 400 invalid_multipart.
func readDocuments(w http.ResponseWriter, r *http.Request) (*models.UploadIdentityDocumentsInput, error) {
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		return nil, &apierr.Error{Status: http.StatusUnsupportedMediaType, Code: codeUnsupportedMediaType,
			Message: "Send the documents as multipart/form-data, or references to them as application/json"}
	}
	if params["boundary"] == "" {
		return nil, apierr.BadRequest(codeInvalidMultipart, "The multipart/form-data Content-Type has no boundary", "")
	}
	if r.ContentLength > models.MaxUploadBytes {
		return nil, tooLarge()
	}
	body := &closingWatch{r: http.MaxBytesReader(w, r.Body, models.MaxUploadBytes),
		closing: []byte("--" + params["boundary"] + "--")}
	mr := multipart.NewReader(body, params["boundary"])
	in := &models.UploadIdentityDocumentsInput{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			if !body.seen { // the parser's io.EOF also ends a body cut short in a part's header
				return nil, apierr.BadRequest(codeInvalidMultipart, "The multipart/form-data body ends before its closing boundary", "")
			}
			return in, nil
		}
		if err != nil {
			return nil, multipartError(err)
		}
		if len(in.Documents) == models.MaxDocumentsPerUpload {
			in.TooMany = true
			return in, nil
		}
		d, err := models.ReadDocument(part.FormName(), part.Header.Get("Content-Type"), part)
		if err != nil {
			return nil, multipartError(err)
		}
		in.Documents = append(in.Documents, d)
	}
}

// multipartError names why a body could not be read: too large, or not
// multipart (the parser's message names no input).
func multipartError(err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return tooLarge()
	}
	return apierr.BadRequest(codeInvalidMultipart, "The request body is not valid multipart/form-data", "")
}

func tooLarge() error {
	return apierr.BadRequest(codeRequestTooLarge,
		fmt.Sprintf("The request body is larger than the upload limit of %d MiB", models.MaxUploadBytes>>20), "")
}

// closingWatch passes a body through and notes whether its closing
// boundary went by: a body without one was cut short.
type closingWatch struct {
	r       io.Reader
	closing []byte
	tail    []byte // the last len(closing)-1 bytes read, for a boundary split across reads
	seen    bool
}

func (c *closingWatch) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && !c.seen {
		window := append(c.tail, p[:n]...)
		c.seen = bytes.Contains(window, c.closing)
		keep := min(len(c.closing)-1, len(window))
		c.tail = append(c.tail[:0], window[len(window)-keep:]...)
	}
	return n, err
}
