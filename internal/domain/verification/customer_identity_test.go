package verification

import "testing"

func TestCustomerOutcome(t *testing.T) {
	cases := map[string]string{
		"+12001003001": CustomerFailed, "+12001003002": CustomerFailed, "+17742345678": CustomerFailed,
		"+12001001691": CustomerFailed, "+12001003003": CustomerPending, "+12001001696": CustomerPending,
		"+12001001695": CustomerVerified, "+14155550100": CustomerVerified, "": CustomerVerified,
	}
	for phone, want := range cases {
		if got := CustomerOutcome(phone); got != want {
			t.Errorf("%q: got %s, want %s", phone, got, want)
		}
	}
}

func TestDocumentSlotsAndTypes(t *testing.T) {
	for field, want := range map[string]string{"front": DocumentIDFront, "drivers_license_back": DocumentIDBack,
		"selfie": DocumentSelfie, "id_front": DocumentIDFront} {
		if got, ok := DocumentSlot(field); !ok || got != want {
			t.Errorf("%s: got %q %v", field, got, ok)
		}
	}
	for _, field := range []string{"", "Front", "passport", "documents"} {
		if _, ok := DocumentSlot(field); ok {
			t.Errorf("%q must fill no slot", field)
		}
	}
	if !AllowedDocumentType(DocumentIDFront, TypePDF) || AllowedDocumentType(DocumentSelfie, TypePDF) ||
		!AllowedDocumentType(DocumentSelfie, TypePNG) || AllowedDocumentType(DocumentIDBack, "image/gif") {
		t.Error("allowed types")
	}
	sniffs := map[string]string{"\xFF\xD8\xFF\xE0rest": TypeJPEG, "\x89PNG\r\n\x1a\nxx": TypePNG, "%PDF-1.7": TypePDF,
		"GIF89a": "", "": "", "\xFF\xD8": ""}
	for head, want := range sniffs {
		if got := SniffDocument([]byte(head)); got != want {
			t.Errorf("%q: got %q, want %q", head, got, want)
		}
	}
}
