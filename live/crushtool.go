package live

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/chbench/chbench/internal/procgroup"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// CrushtoolPackage is the Debian package that ships crushtool (Ceph 16.2
// in Debian 12).
const CrushtoolPackage = "ceph-base"

// CrushtoolTimeout bounds one crushtool run. A --test over 10,000 inputs
// takes about 20 ms on the reference machine.
const CrushtoolTimeout = 30 * time.Second

// Crushtool runs Ceph's crushtool with args in directory dir (where its
// map files are), in its own process group, killed with the whole group
// when timeout passes, and returns what it wrote to stdout. crushtool
// reads and writes only files; it opens no socket. A missing binary is a
// *MissingBinary naming CrushtoolPackage; a failed run returns the end of
// its stderr.
func Crushtool(dir string, timeout time.Duration, args ...string) ([]byte, error) {
	path, err := exec.LookPath("crushtool")
	if err != nil {
		return nil, &MissingBinary{Binary: "crushtool", Package: CrushtoolPackage}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	procgroup.Set(cmd)
	cmd.Cancel = func() error { procgroup.Kill(cmd); return nil }
	cmd.WaitDelay = 5 * time.Second
	var stdout bytes.Buffer
	errTail := &procgroup.Tail{Max: 4096}
	cmd.Stdout, cmd.Stderr = &stdout, errTail
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("live: crushtool %s: killed after %v", strings.Join(args, " "), timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("live: crushtool %s: %w: %s", strings.Join(args, " "), err, errTail)
	}
	return stdout.Bytes(), nil
}

// mappingLine is one line of `crushtool --test --show-mappings`:
// "CRUSH rule 0 x 17 [4,3,5]".
var mappingLine = regexp.MustCompile(`^CRUSH rule (\d+) x (\d+) \[([0-9,-]*)\]$`)

// ParseMappings reads the output of `crushtool --test --show-mappings`
// for inputs minX..maxX: out[x-minX] is the device list crushtool printed
// for x, in its order. It returns an error naming a line it cannot read,
// an input outside the range or printed twice, or one never printed.
func ParseMappings(out []byte, minX, maxX int) ([][]int, error) {
	res := make([][]int, maxX-minX+1)
	seen := make([]bool, len(res))
	sc := bufio.NewScanner(bytes.NewReader(out))
	line := 0
	for sc.Scan() {
		line++
		m := mappingLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue // other --test output (rule headers, statistics)
		}
		x, _ := strconv.Atoi(m[2])
		if x < minX || x > maxX {
			return nil, fmt.Errorf("live: crushtool line %d: x %d outside %d..%d", line, x, minX, maxX)
		}
		if seen[x-minX] {
			return nil, fmt.Errorf("live: crushtool line %d: x %d printed twice", line, x)
		}
		seen[x-minX] = true
		devs := []int{}
		if m[3] != "" {
			for _, f := range strings.Split(m[3], ",") {
				d, err := strconv.Atoi(f)
				if err != nil {
					return nil, fmt.Errorf("live: crushtool line %d: device %q: %w", line, f, err)
				}
				devs = append(devs, d)
			}
		}
		res[x-minX] = devs
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("live: crushtool printed no mapping for x %d", minX+i)
		}
	}
	return res, nil
}

// utilizationLine is one device line of `crushtool --test
// --show-utilization`: "  device 3:		 stored : 2528	 expected : 2500".
var utilizationLine = regexp.MustCompile(`^\s*device (\d+):\s+stored : (\d+)\s+expected : ([0-9.]+)$`)

// ParseUtilization reads the per-device stored counts of `crushtool
// --test --show-utilization` (one rule and replica count): stored[d] is
// how many of the inputs placed a replica on device d. Devices crushtool
// does not list (it omits devices that stored nothing) are absent.
func ParseUtilization(out []byte) (map[int]int, error) {
	stored := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := utilizationLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		d, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		if _, dup := stored[d]; dup {
			return nil, fmt.Errorf("live: crushtool lists device %d twice", d)
		}
		stored[d] = n
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		return nil, errors.New("live: crushtool printed no utilization lines")
	}
	return stored, nil
}
