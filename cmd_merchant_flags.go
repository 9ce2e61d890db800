package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/google/uuid"
)

// parseMerchantFlags parses the flags of a command that acts on one
// merchant: its own flags, the database's (registered into dbf here) and
// merchant, the --merchant value, which must be a merchant id. A refusal is
// errUsage, with the reason written to stderr, as every command answers it.
func parseMerchantFlags(fs *flag.FlagSet, dbf *dbFlags, merchant *string, args []string, stderr io.Writer) (uuid.UUID, error) {
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return uuid.Nil, errUsage
	}
	mid, err := uuid.Parse(*merchant)
	if err != nil {
		fmt.Fprintln(stderr, "--merchant must be a merchant id")
		return uuid.Nil, errUsage
	}
	return mid, nil
}
