package trace

import (
	"encoding/binary"
	"math/bits"
)

// digits8 returns the 8 decimal digits of v < 10^8, most significant
// first, as the bytes of a little-endian uint64 (digit values 0-9, not
// ASCII). It works on all digits at once (SWAR): v splits into two
// 4-digit halves in 32-bit lanes, each half into two 2-digit parts in
// 16-bit lanes (dividing by 100 as *5243>>19, exact below 43,699), each
// part into two digits in 8-bit lanes (dividing by 10 as *103>>10, exact
// below 179); no lane overflows into the next.
func digits8(v uint64) uint64 {
	hi := v / 10000
	x := hi | (v-hi*10000)<<32
	q := (x * 5243 >> 19) & 0x0000007f_0000007f
	y := q | (x-q*100)<<16
	t := (y * 103 >> 10) & 0x000f_000f_000f_000f
	return t | (y-t*10)<<8
}

// appendDecimal appends the decimal text of x to dst, as
// strconv.AppendUint(dst, x, 10) does: two divisions split x into at most
// three 8-digit groups, each converted at once by digits8, and the
// leading group loses its leading zeros.
func appendDecimal(dst []byte, x uint64) []byte {
	const e8, e16 = 100000000, 10000000000000000
	var lead, mid, low uint64
	groups := 1
	switch {
	case x < e8:
		lead = digits8(x)
	case x < e16:
		lead, low = digits8(x/e8), digits8(x%e8)
		groups = 2
	default:
		rest := x % e16
		lead, mid, low = digits8(x/e16), digits8(rest/e8), digits8(rest%e8)
		groups = 3
	}
	z := bits.TrailingZeros64(lead) / 8 // leading zero digits (digit 1 is byte 0)
	if z == 8 {
		z = 7 // 0 keeps its one digit
	}
	var buf [24]byte
	binary.LittleEndian.PutUint64(buf[0:], lead|0x3030303030303030)
	binary.LittleEndian.PutUint64(buf[8:], mid|0x3030303030303030)
	binary.LittleEndian.PutUint64(buf[16:], low|0x3030303030303030)
	switch groups {
	case 1:
		return append(dst, buf[z:8]...)
	case 2:
		binary.LittleEndian.PutUint64(buf[8:], low|0x3030303030303030)
		return append(dst, buf[z:16]...)
	}
	return append(dst, buf[z:24]...)
}
