package external

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/escape"
)

// The test binary doubles as the program under test: run with
// CHBENCH_EXTERNAL_HELPER set, it speaks the protocol instead of running
// tests. Modes (CHBENCH_HELPER_AT is the answer at which a fault appears,
// counted from 0 over the whole run):
//
//	mod       owner of key k: node fnv1a32(k) mod n, replicas the next nodes
//	node0     every key on the first node (the trivial responder of the benchmark)
//	crash     exits with status 3 at answer AT, after writing to stderr
//	killed    kills itself with SIGKILL at answer AT
//	short     one answer line fewer than keys in the batch holding answer AT, then silence
//	extra     one answer line more after the batch holding answer AT
//	stranger  names node "ghost" at answer AT
//	garbage   writes a control byte in answer AT
//	twoids    writes two node IDs at answer AT (R = 1)
//	hang      reads the request holding answer AT, then never replies
//	huge      writes an endless line instead of answer AT
//	refuse    replies error to memberships of more than 3 nodes
//	hello     replies CHBENCH_HELPER_HELLO to the handshake
//	fork      starts a grandchild (sleep) whose PID it writes to CHBENCH_HELPER_FILE
//	deaf      ignores the end of its input (Close must kill it)
//	record    as mod, copying every byte it reads to CHBENCH_HELPER_FILE
//	parent    is chbench: starts a hang helper under a context that SIGINT
//	          cancels, writes its PID to CHBENCH_HELPER_FILE, locates keys,
//	          prints the error and closes the helper
const helperEnv = "CHBENCH_EXTERNAL_HELPER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(helperEnv); mode {
	case "":
	case "parent":
		os.Exit(runParent())
	default:
		os.Exit(serveHelper(mode))
	}
	os.Exit(m.Run())
}

// helper returns the Config that runs the test binary in the given mode.
func helper(t testing.TB, mode string, env ...string) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// GORACE: a race-enabled binary otherwise sleeps 1 s at exit, which
	// every Close would wait for.
	return Config{Args: []string{exe}, Env: append([]string{helperEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}, env...), Timeout: 5 * time.Second}
}

// modOwner is the owner index of key among n nodes in mode mod.
func modOwner(key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

func runParent() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	exe, err := os.Executable()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	p, err := Start(ctx, Config{Args: []string{exe}, Env: []string{helperEnv + "=hang", "CHBENCH_HELPER_AT=0", "GORACE=atexit_sleep_ms=0"}, Timeout: time.Minute})
	if err != nil {
		fmt.Println("start:", err)
		return 1
	}
	defer p.Close()
	l, err := p.New([]algorithms.Node{{ID: "a", Weight: 1}})
	if err != nil {
		fmt.Println("members:", err)
		return 1
	}
	os.WriteFile(os.Getenv("CHBENCH_HELPER_FILE"), []byte(strconv.Itoa(p.cmd.Process.Pid)), 0o644)
	err = l.LocateKeys([]string{"k"}, make([]int, 1))
	fmt.Println("locate:", err)
	return 0
}

func serveHelper(mode string) int {
	at := -1
	if s := os.Getenv("CHBENCH_HELPER_AT"); s != "" {
		at, _ = strconv.Atoi(s)
	}
	var in io.Reader = os.Stdin
	switch mode {
	case "record":
		f, err := os.Create(os.Getenv("CHBENCH_HELPER_FILE"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		in = io.TeeReader(os.Stdin, f)
	case "fork":
		c := exec.Command("sleep", "300")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.WriteFile(os.Getenv("CHBENCH_HELPER_FILE"), []byte(strconv.Itoa(c.Process.Pid)), 0o644)
	}
	rd := bufio.NewReaderSize(in, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	members := map[string][]string{} // membership ID -> escaped node IDs
	answer := 0                      // answers written so far
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			if mode == "deaf" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		f := strings.Fields(line)
		switch f[0] {
		case "hello":
			if h := os.Getenv("CHBENCH_HELPER_HELLO"); mode == "hello" {
				out.WriteString(h + "\n")
			} else {
				out.WriteString("ok 1 helper-" + mode + " weighted=yes leave=any ordered=no replicas=8\n")
			}
		case "members":
			n, _ := strconv.Atoi(f[3])
			ids := make([]string, n)
			for i := range ids {
				l, _ := rd.ReadString('\n')
				ids[i], _, _ = strings.Cut(l, " ")
			}
			if mode == "refuse" && n > 3 {
				out.WriteString("error capacity 3 exceeded\n")
				break
			}
			members[f[1]] = ids
			out.WriteString("ok\n")
		case "drop":
			delete(members, f[1])
			out.WriteString("ok\n")
		case "locate":
			ids := members[f[1]]
			r, _ := strconv.Atoi(f[2])
			k, _ := strconv.Atoi(f[3])
			keys := make([][]byte, k)
			for i := range keys {
				l, _ := rd.ReadSlice('\n')
				keys[i], _ = escape.Decode(nil, l[:len(l)-1])
			}
			inBatch := at >= answer && at < answer+k
			if mode == "hang" && inBatch {
				out.Flush()
				time.Sleep(time.Hour)
			}
			out.WriteString("ok\n")
			for i, key := range keys {
				if answer == at {
					switch mode {
					case "crash":
						out.Flush()
						fmt.Fprintln(os.Stderr, "helper: crashing on purpose at answer", at)
						return 3
					case "killed":
						out.Flush()
						syscall.Kill(os.Getpid(), syscall.SIGKILL)
					case "stranger":
						out.WriteString("ghost\n")
						answer++
						continue
					case "garbage":
						out.WriteString("node\x01zero\n")
						answer++
						continue
					case "twoids":
						out.WriteString(ids[0] + " " + ids[0] + "\n")
						answer++
						continue
					case "huge":
						out.WriteString("ok")
						chunk := bytes.Repeat([]byte("a"), 1<<16)
						for {
							if _, err := out.Write(chunk); err != nil {
								return 1
							}
						}
					}
				}
				if mode == "short" && inBatch && i == k-1 {
					break
				}
				o := 0
				if mode != "node0" {
					o = modOwner(string(key), len(ids))
				}
				for j := range r {
					if j > 0 {
						out.WriteByte(' ')
					}
					out.WriteString(ids[(o+j)%len(ids)])
				}
				out.WriteByte('\n')
				answer++
			}
			if mode == "extra" && inBatch {
				out.WriteString(ids[0] + "\n")
			}
			if mode == "short" && inBatch {
				out.Flush()
				time.Sleep(time.Hour)
			}
		default:
			fmt.Fprintf(os.Stderr, "helper: unknown request %q\n", line)
			return 2
		}
		out.Flush()
	}
}
