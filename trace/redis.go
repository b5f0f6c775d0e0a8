package trace

import (
	"bytes"
	"time"
)

// parseRedisScan reads one line of `redis-cli --scan` output written to a
// file or a pipe: redis-cli (src/redis-cli.c, scanMode) prints each key
// raw, followed by "\n", when its stdout is not a terminal. Every line is a
// key exactly as it is (Redis allows the empty key, so an empty line is
// one; a CR stays part of the key). This output cannot show every key: a
// key holding "\n" reads as two keys, and redis-cli prints with printf's
// %s, so a key holding a NUL byte comes out cut at it (checked against
// redis-cli 7.0 in live/); redis-cli --no-raw quotes keys, which this
// format does not read.
func parseRedisScan(r *reader, line []byte, n, off int64) bool {
	q := r.request(n, off)
	q.Key, q.KeySize, q.Op = line, len(line), OpGet
	return true
}

// MONITOR lines (src/replication.c, replicationFeedMonitors, Redis 7.0):
//
//	<seconds>.<microseconds> [<db> <client>] "<arg0>" "<arg1>" ...
//
// where client is ip:port ([ipv6]:port), "lua" or "unix:<path>", and every
// argument is quoted by src/sds.c's sdscatrepr: \\ \" \n \r \t \a \b, \xHH
// for other unprintable bytes, everything else as it is. `redis-cli
// monitor` prints these lines (after an OK line) as they come.
//
// Commands become requests by what they do to their keys: reads (GET,
// MGET, HGET, EXISTS, ... ) are gets, one request per key; SET (NX: add,
// XX: replace; EX/PX/EXAT/PXAT set the TTL), SETEX, PSETEX, MSET, APPEND,
// INCR*/DECR* and the collection writes (HSET, LPUSH, SADD, ZADD, ...)
// are writes with the value's bytes as ValueSize; DEL and UNLINK are
// deletes. Commands without a key (PING, SELECT, INFO, CLIENT, MULTI, ...)
// and keyed commands that move no data (EXPIRE, PERSIST, ...) are skipped
// and counted in Stats.Skipped.
type monitorParser struct {
	textParser
	arena   []byte
	ends    []int
	args    [][]byte
	pending []monitorReq // requests of the current line after the first
	lower   []byte
}

type monitorReq struct {
	key       []byte
	valueSize int
}

func newMonitor(*reader) (parser, error) {
	p := &monitorParser{}
	p.textParser = textParser{p.parse}
	return p, nil
}

func (p *monitorParser) next(r *reader) bool {
	if len(p.pending) > 0 {
		cur := r.req
		q := r.request(cur.Line, cur.Offset)
		q.Time, q.Op, q.TTL, q.Client = cur.Time, cur.Op, cur.TTL, cur.Client
		q.Key, q.KeySize, q.ValueSize = p.pending[0].key, len(p.pending[0].key), p.pending[0].valueSize
		p.pending = p.pending[1:]
		return true
	}
	return p.textParser.next(r)
}

// cmdKeys says where a command's keys are.
type cmdKeys uint8

const (
	keyFirst cmdKeys = iota // args[1]
	keyAll                  // args[1:]
	keyPairs                // args[1], args[3], ... with values after each
)

type cmdSpec struct {
	op    Op
	keys  cmdKeys
	value int // index of the value argument; 0 none; -1 every argument after the key
	skip  bool
}

var monitorCommands = map[string]cmdSpec{}

func init() {
	for _, c := range []string{"get", "getex", "getdel", "strlen", "getrange", "substr", "type", "ttl", "pttl",
		"hget", "hmget", "hgetall", "hexists", "hlen", "hkeys", "hvals", "hstrlen", "lrange", "llen", "lindex",
		"smembers", "sismember", "smismember", "scard", "srandmember", "zrange", "zrangebyscore", "zrevrange",
		"zscore", "zcard", "zrank", "zrevrank", "zcount", "dump"} {
		monitorCommands[c] = cmdSpec{op: OpGet}
	}
	for _, c := range []string{"mget", "exists", "touch"} {
		monitorCommands[c] = cmdSpec{op: OpGet, keys: keyAll}
	}
	for _, c := range []string{"hset", "hmset", "hsetnx", "hdel", "hincrby", "lpush", "rpush", "lpushx", "rpushx",
		"lset", "lrem", "ltrim", "lpop", "rpop", "sadd", "srem", "spop", "zadd", "zrem", "zincrby", "setrange", "restore"} {
		monitorCommands[c] = cmdSpec{op: OpSet, value: -1}
	}
	for _, c := range []string{"expire", "pexpire", "expireat", "pexpireat", "persist", "object", "rename", "renamenx", "move", "copy"} {
		monitorCommands[c] = cmdSpec{skip: true}
	}
	monitorCommands["set"] = cmdSpec{op: OpSet, value: 2}
	monitorCommands["setnx"] = cmdSpec{op: OpAdd, value: 2}
	monitorCommands["getset"] = cmdSpec{op: OpSet, value: 2}
	monitorCommands["setex"] = cmdSpec{op: OpSet, value: 3}
	monitorCommands["psetex"] = cmdSpec{op: OpSet, value: 3}
	monitorCommands["append"] = cmdSpec{op: OpAppend, value: 2}
	monitorCommands["mset"] = cmdSpec{op: OpSet, keys: keyPairs}
	monitorCommands["msetnx"] = cmdSpec{op: OpAdd, keys: keyPairs}
	for _, c := range []string{"incr", "incrby", "incrbyfloat"} {
		monitorCommands[c] = cmdSpec{op: OpIncr}
	}
	for _, c := range []string{"decr", "decrby"} {
		monitorCommands[c] = cmdSpec{op: OpDecr}
	}
	for _, c := range []string{"del", "unlink"} {
		monitorCommands[c] = cmdSpec{op: OpDelete, keys: keyAll}
	}
}

func (p *monitorParser) parse(r *reader, line []byte, n, off int64) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if string(line) == "OK" || len(line) == 0 {
		r.stats.Skipped++
		return false
	}
	ts, client, rest, ok := monitorHeader(line)
	if !ok {
		r.bad(n, off, "not a MONITOR line (<seconds>.<microseconds> [<db> <client>] \"cmd\" ...): %q", clip(line))
		return true
	}
	if !p.split(rest) {
		r.bad(n, off, "arguments are not sdscatrepr-quoted strings: %q", clip(rest))
		return true
	}
	args := p.args
	p.lower = append(p.lower[:0], args[0]...)
	for i, c := range p.lower {
		if c >= 'A' && c <= 'Z' {
			p.lower[i] = c + 'a' - 'A'
		}
	}
	spec, known := monitorCommands[string(p.lower)]
	if !known || spec.skip || len(args) < 2 {
		r.stats.Skipped++
		return false
	}
	var ttl time.Duration
	op := spec.op
	switch string(p.lower) {
	case "set":
		if len(args) < 3 {
			r.bad(n, off, "SET without a value")
			return true
		}
		for i := 3; i < len(args); i++ {
			var unit time.Duration
			switch string(bytes.ToUpper(args[i])) {
			case "NX":
				op = OpAdd
			case "XX":
				op = OpReplace
			case "EX", "EXAT":
				unit = time.Second
			case "PX", "PXAT":
				unit = time.Millisecond
			}
			if unit != 0 && i+1 < len(args) {
				v, ok := parseUint(args[i+1])
				if !ok || v > maxSeconds {
					r.bad(n, off, "SET %s %q is not a whole number", args[i], clip(args[i+1]))
					return true
				}
				ttl = time.Duration(v) * unit
				if up := bytes.ToUpper(args[i]); bytes.HasSuffix(up, []byte("AT")) {
					ttl = max(ttl-ts, time.Second) // absolute: the rest of its life from now
				}
				i++
			}
		}
	case "setex", "psetex":
		if len(args) < 4 {
			r.bad(n, off, "%s needs key, time and value", args[0])
			return true
		}
		v, ok := parseUint(args[2])
		if !ok || v > maxSeconds {
			r.bad(n, off, "%s time %q is not a whole number", args[0], clip(args[2]))
			return true
		}
		ttl = time.Duration(v) * time.Second
		if p.lower[0] == 'p' {
			ttl = time.Duration(v) * time.Millisecond
		}
	}
	first := monitorReq{key: args[1]}
	p.pending = p.pending[:0]
	switch spec.keys {
	case keyFirst:
		switch {
		case spec.value > 0 && spec.value < len(args):
			first.valueSize = len(args[spec.value])
		case spec.value < 0:
			for _, a := range args[2:] {
				first.valueSize += len(a)
			}
		}
	case keyAll:
		for _, k := range args[2:] {
			p.pending = append(p.pending, monitorReq{key: k})
		}
	case keyPairs:
		if len(args)%2 != 1 {
			r.bad(n, off, "%s needs key value pairs, has %d arguments", args[0], len(args)-1)
			return true
		}
		first.valueSize = len(args[2])
		for i := 3; i+1 < len(args); i += 2 {
			p.pending = append(p.pending, monitorReq{key: args[i], valueSize: len(args[i+1])})
		}
	}
	q := r.request(n, off)
	q.Time, q.Client, q.Op, q.TTL = ts, client, op, ttl
	q.Key, q.KeySize, q.ValueSize = first.key, len(first.key), first.valueSize
	return true
}

// monitorHeader splits a MONITOR line into its time, client and the rest
// (the quoted arguments).
func monitorHeader(line []byte) (ts time.Duration, client, rest []byte, ok bool) {
	dot := bytes.IndexByte(line, '.')
	if dot < 1 || len(line) < dot+8 || line[dot+7] != ' ' {
		return 0, nil, nil, false
	}
	sec, ok1 := parseUint(line[:dot])
	usec, ok2 := parseUint(line[dot+1 : dot+7])
	if !ok1 || !ok2 || sec > maxSeconds/2 {
		return 0, nil, nil, false
	}
	rest = line[dot+8:]
	if len(rest) < 2 || rest[0] != '[' {
		return 0, nil, nil, false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp < 2 {
		return 0, nil, nil, false
	}
	if _, ok := parseUint(rest[1:sp]); !ok {
		return 0, nil, nil, false
	}
	end := bytes.Index(rest, []byte(`] "`))
	if end <= sp {
		return 0, nil, nil, false
	}
	ts = time.Duration(sec)*time.Second + time.Duration(usec)*time.Microsecond
	return ts, rest[sp+1 : end], rest[end+2:], true
}

// split decodes the sdscatrepr-quoted, space-separated arguments of s
// into p.args.
func (p *monitorParser) split(s []byte) bool {
	p.arena, p.ends = p.arena[:0], p.ends[:0]
	for len(s) > 0 {
		if s[0] != '"' {
			return false
		}
		i := 1
		closed := false
		for i < len(s) {
			c := s[i]
			if c == '"' {
				closed = true
				i++
				break
			}
			if c != '\\' {
				p.arena = append(p.arena, c)
				i++
				continue
			}
			if i+1 >= len(s) {
				return false
			}
			switch s[i+1] {
			case '\\', '"':
				p.arena = append(p.arena, s[i+1])
			case 'n':
				p.arena = append(p.arena, '\n')
			case 'r':
				p.arena = append(p.arena, '\r')
			case 't':
				p.arena = append(p.arena, '\t')
			case 'a':
				p.arena = append(p.arena, '\a')
			case 'b':
				p.arena = append(p.arena, '\b')
			case 'x':
				if i+3 >= len(s) {
					return false
				}
				hi, ok1 := unhex(s[i+2])
				lo, ok2 := unhex(s[i+3])
				if !ok1 || !ok2 {
					return false
				}
				p.arena = append(p.arena, hi<<4|lo)
				i += 2
			default:
				return false
			}
			i += 2
		}
		if !closed {
			return false
		}
		p.ends = append(p.ends, len(p.arena))
		s = s[i:]
		if len(s) > 0 {
			if s[0] != ' ' || len(s) == 1 {
				return false
			}
			s = s[1:]
		}
	}
	if len(p.ends) == 0 {
		return false
	}
	p.args = p.args[:0]
	start := 0
	for _, e := range p.ends {
		p.args = append(p.args, p.arena[start:e:e])
		start = e
	}
	return true
}

func sniffMonitor(lines [][]byte) bool {
	cmds := 0
	for _, l := range lines {
		l = bytes.TrimSuffix(l, []byte{'\r'})
		if string(l) == "OK" {
			continue
		}
		if _, _, _, ok := monitorHeader(l); !ok {
			return false
		}
		cmds++
	}
	return cmds > 0
}
