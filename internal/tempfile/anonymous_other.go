//go:build !linux

package tempfile

import (
	"errors"
	"os"
)

var errNoTmpfile = errors.New("O_TMPFILE is Linux only")

func openTmpfile(string) (*os.File, error)                 { return nil, errNoTmpfile }
func linkTmpfile(*os.File, string, string) (string, error) { return "", errNoTmpfile }

// Space reports the free bytes of dir's file system and whether it keeps
// its files in memory; here neither is known: -1, false.
func Space(string) (free int64, inMemory bool, err error) { return -1, false, nil }
