//go:build (!cgo || longstraw_wasm || !linux || !(amd64 || arm64)) && unix

package longstraw

import (
	"errors"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// secretStall is how long a pipe may give no data before its read fails
// (the module's message says 10 s, as a native load's does; a variable
// for the tests).
var secretStall = 10 * time.Second

// readSecretFile reports what is at a keyed file's secret file, read as a
// native load reads it: opened without waiting for a writer (a FIFO) and
// without becoming a controlling terminal, classified by fstat, a regular
// file or a pipe read once to its end or to secretReadCap bytes, each read
// of a pipe waiting at most secretStall for data. The content is the
// secret: never shown.
func readSecretFile(path string) (uint32, []byte) {
	if strings.IndexByte(path, 0) >= 0 {
		return secretFailed, nil // the module refuses the path itself
	}
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return failedRead(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return failedRead(err)
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFDIR:
		return secretDirectory, nil
	case unix.S_IFCHR, unix.S_IFBLK:
		return secretDevice, nil
	case unix.S_IFSOCK:
		return secretSocket, nil
	case unix.S_IFREG:
		return readRegular(fd)
	}
	return readPipe(fd)
}

// readRegular reads a regular file to its end or to secretReadCap bytes
// (O_NONBLOCK does not apply to regular files).
func readRegular(fd int) (uint32, []byte) {
	out := make([]byte, 0, secretReadCap)
	for len(out) < secretReadCap {
		var n int
		err := retryEINTR(func() (err error) {
			n, err = unix.Read(fd, out[len(out):secretReadCap])
			return err
		})
		if err != nil {
			clear(out)
			return failedRead(err)
		}
		if n == 0 {
			break
		}
		out = out[:len(out)+n]
	}
	return secretContent, out
}

// readPipe reads a non-blocking pipe until its writer closes it, polling
// before each read: Linux reports a FIFO's end only once a writer has opened
// and closed it, so a read before any writer came would see an empty file.
func readPipe(fd int) (uint32, []byte) {
	out := make([]byte, 0, secretReadCap)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for len(out) < secretReadCap {
		n, err := unix.Poll(fds, int(secretStall/time.Millisecond))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			clear(out)
			return failedRead(err)
		}
		if n == 0 {
			clear(out)
			return secretStalled, nil
		}
		got, err := unix.Read(fd, out[len(out):secretReadCap])
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			clear(out)
			return failedRead(err)
		}
		if got == 0 {
			break
		}
		out = out[:len(out)+got]
	}
	return secretContent, out
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// osMessage is the OS's sentence for err, as the native library gives it
// (the C library's strerror: "No such file or directory", where Go's own
// table has "no such file or directory").
func osMessage(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	text := err.Error()
	if text != "" && 'a' <= text[0] && text[0] <= 'z' {
		text = string(text[0]-'a'+'A') + text[1:]
	}
	return text
}
