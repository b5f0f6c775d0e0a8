package tempfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// openTmpfile opens an O_TMPFILE file in dir: a file with no name.
func openTmpfile(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "open O_TMPFILE", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, "(anonymous)")), nil
}

// linkTmpfile gives the O_TMPFILE file f a new name of pattern in dir
// (linkat through /proc/self/fd, which needs no privilege) and returns
// it.
func linkTmpfile(f *os.File, dir, pattern string) (string, error) {
	src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for range 100 {
		name := filepath.Join(dir, randomName(pattern))
		err := unix.Linkat(unix.AT_FDCWD, src, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) {
			return "", &os.LinkError{Op: "link", Old: src, New: name, Err: err}
		}
	}
	return "", errors.New("no free temporary name in " + dir)
}

// Space returns how many bytes the file system of dir ("" for
// os.TempDir()) has free for an unprivileged user, and whether it keeps
// its files in memory (tmpfs, ramfs), so that a copy there counts against
// the memory budget.
func Space(dir string) (free int64, inMemory bool, err error) {
	if dir == "" {
		dir = os.TempDir()
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false, &os.PathError{Op: "statfs", Path: dir, Err: err}
	}
	return int64(st.Bavail) * int64(st.Bsize), st.Type == unix.TMPFS_MAGIC || st.Type == unix.RAMFS_MAGIC, nil
}
