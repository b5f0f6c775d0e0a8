package propagate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseModel reads a model in its text form, name[:key=value,...]:
//
//	instant
//	linear:T=30s
//	push:dist=exp,mean=2s
//	push:dist=uniform,min=0s,max=10s      (min defaults to 0)
//	push:dist=lognormal,median=1s,sigma=0.8
//	gossip:k=3,p=200ms[,seeds=2][,fresh=1][,transmits=12][,latency=1ms]
//
// Times are Go durations ("200ms", "1.5s", "2m") or plain numbers of
// seconds. The error names the bad part; every model it returns is valid.
// [Model.Spec] writes the same form back.
func ParseModel(s string) (Model, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(s), ":")
	kv, err := parseParams(rest)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", s, err)
	}
	var m Model
	switch name {
	case "instant":
		m, err = Instant{}, kv.done()
	case "linear":
		var l Linear
		l.Duration, err = kv.duration("T", math.NaN())
		m = l
		err = firstErr(err, kv.done())
	case "push":
		m, err = parsePush(kv)
	case "gossip":
		var g Gossip
		g.Fanout, err = kv.integer("k", -1)
		p, err2 := kv.duration("p", math.NaN())
		seeds, err3 := kv.integer("seeds", 1)
		fresh, err6 := kv.integer("fresh", 0)
		tr, err4 := kv.integer("transmits", 0)
		lat, err5 := kv.duration("latency", 0)
		g.Period, g.Seeds, g.Fresh, g.Transmits, g.Latency = p, seeds, fresh, tr, lat
		m, err = g, firstErr(err, err2, err3, err4, err5, err6, kv.done())
	case "empirical":
		return nil, fmt.Errorf("model %q: an empirical model is built from measured delays (propagate.Empirical), not from text", s)
	default:
		return nil, fmt.Errorf("model %q: unknown model %q (known: instant, linear, push, gossip)", s, name)
	}
	if err == nil {
		err = m.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", s, err)
	}
	return m, nil
}

func parsePush(kv params) (Model, error) {
	dist, ok := kv.take("dist")
	if !ok {
		return nil, fmt.Errorf("push: missing dist= (exp, uniform or lognormal)")
	}
	var d Delay
	var err error
	switch dist {
	case "exp":
		var e Exponential
		e.Mean, err = kv.duration("mean", math.NaN())
		d = e
	case "uniform":
		var u UniformDelay
		var err2 error
		u.Min, err = kv.duration("min", 0)
		u.Max, err2 = kv.duration("max", math.NaN())
		d, err = u, firstErr(err, err2)
	case "lognormal":
		var l LogNormal
		var err2 error
		l.Median, err = kv.duration("median", math.NaN())
		l.Sigma, err2 = kv.number("sigma", math.NaN())
		d, err = l, firstErr(err, err2)
	default:
		return nil, fmt.Errorf("push: unknown dist %q (known: exp, uniform, lognormal)", dist)
	}
	return Push{Delay: d}, firstErr(err, kv.done())
}

// params are the key=value pairs of a spec, consumed by the parser; done
// reports the ones left over.
type params map[string]string

func parseParams(s string) (params, error) {
	kv := params{}
	if s == "" {
		return kv, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("parameter %q: want key=value", part)
		}
		if _, dup := kv[k]; dup {
			return nil, fmt.Errorf("parameter %q given twice", k)
		}
		kv[k] = v
	}
	return kv, nil
}

func (kv params) take(k string) (string, bool) {
	v, ok := kv[k]
	delete(kv, k)
	return v, ok
}

// duration returns parameter k in seconds (a Go duration or a number of
// seconds), def when absent (NaN: required).
func (kv params) duration(k string, def float64) (float64, error) {
	v, ok := kv.take(k)
	if !ok {
		if math.IsNaN(def) {
			return 0, fmt.Errorf("missing %s=", k)
		}
		return def, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		return d.Seconds(), nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s=%s: not a duration (e.g. 200ms, 30s) or a finite number of seconds", k, v)
	}
	return x, nil
}

func (kv params) number(k string, def float64) (float64, error) {
	v, ok := kv.take(k)
	if !ok {
		if math.IsNaN(def) {
			return 0, fmt.Errorf("missing %s=", k)
		}
		return def, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s=%s: not a finite number", k, v)
	}
	return x, nil
}

func (kv params) integer(k string, def int) (int, error) {
	v, ok := kv.take(k)
	if !ok {
		if def < 0 {
			return 0, fmt.Errorf("missing %s=", k)
		}
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not an integer", k, v)
	}
	return n, nil
}

// done returns an error naming a parameter nobody took.
func (kv params) done() error {
	// The smallest key, so that the error names the same one every time.
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		return fmt.Errorf("unknown parameter %q", k)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// seconds formats x seconds as the shortest decimal followed by "s".
func seconds(x float64) string { return number(x) + "s" }

func number(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
