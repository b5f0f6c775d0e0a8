package hashkit

import "unsafe"

// bytesOf views s as a byte slice without copying; the hash functions
// only read it.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
