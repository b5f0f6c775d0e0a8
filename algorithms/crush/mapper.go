package crush

import "math"

// MaxResult is the most devices one mapping returns (Ceph has no fixed
// bound; replicated pools use 1 to 10).
const MaxResult = 16

// Draw returns straw2's draw for an item of 16.16 weight w (> 0) for
// input x and replica rank r: Ln(Hash3(x, id, r) & 0xffff) - 2^48
// divided by w, truncated toward zero as C's signed division does. The
// item with the largest draw wins: the draws are scaled logarithms of
// uniform numbers over the weights, so an item wins with probability
// proportional to its weight (the exponential races of weighted
// rendezvous). Ceph src/crush/mapper.c, bucket_straw2_choose and
// generate_exponential_distribution (v16.2).
func Draw(x uint32, id int32, r int, w Weight) int64 {
	u := Hash3(x, uint32(id), uint32(r)) & 0xffff
	ln := int64(Ln(u)) - 0x1000000000000
	return ln / int64(w)
}

// choose is bucket_straw2_choose: the item with the largest draw, the
// first on ties; items of weight 0 draw the smallest int64.
func (b *Bucket) choose(x uint32, r int) int32 {
	best, bestDraw := 0, int64(0)
	for i, it := range b.Items {
		d := int64(math.MinInt64)
		if it.Weight != 0 {
			d = Draw(x, it.ID, r, it.Weight)
		}
		if i == 0 || d > bestDraw {
			best, bestDraw = i, d
		}
	}
	return b.Items[best].ID
}

// isOut is the mapper's is_out: whether device item rejects input x
// under the reweight vector (0x10000 in, 0 out, between: in for that
// fraction of inputs). A nil vector has every device in.
func isOut(reweight []uint32, item int32, x uint32) bool {
	if reweight == nil {
		return false
	}
	if int(item) >= len(reweight) {
		return true
	}
	w := reweight[item]
	if w >= 0x10000 {
		return false
	}
	if w == 0 {
		return true
	}
	return Hash2(x, uint32(item))&0xffff >= w
}

// chooser holds what every level of one crush_choose_firstn recursion
// shares.
type chooser struct {
	m            *Map
	x            uint32
	reweight     []uint32
	localRetries int
	varyR        int
	stable       bool
}

// firstn is crush_choose_firstn (Ceph src/crush/mapper.c, v16.2) for
// straw2 buckets and no local fallback: choose up to numrep distinct
// items of type typ under bucket b, written from out[outpos] on, at most
// outSize of them; with leaf set, also one device under each chosen
// item into out2 (chooseleaf). A collision or a rejected item retries
// with r + ftotal: locally up to localRetries times after a collision,
// else by a new descent from b, up to tries descents per replica. It
// returns the new outpos.
func (c *chooser) firstn(b *Bucket, numrep, typ int, out []int32, outpos, outSize, tries, recurseTries int, leaf bool, out2 []int32, parentR int) int {
	m := c.m
	count := outSize
	rep := outpos
	if c.stable {
		rep = 0
	}
	for ; rep < numrep && count > 0; rep++ {
		ftotal := 0
		skip := false
		var item int32
		for descend := true; descend; {
			descend = false
			in := b
			flocal := 0
			for retryBucket := true; retryBucket; {
				retryBucket = false
				collide, reject := false, false
				r := rep + parentR + ftotal
				if len(in.Items) == 0 {
					reject = true
				} else {
					item = in.choose(c.x, r)
					if int(item) >= m.Devices {
						skip = true
						break
					}
					itemType := 0
					if item < 0 {
						itemType = m.Buckets[-1-item].Type
					}
					if itemType != typ {
						if item >= 0 {
							skip = true
							break
						}
						in = m.Buckets[-1-item]
						retryBucket = true
						continue
					}
					for _, o := range out[:outpos] {
						if o == item {
							collide = true
							break
						}
					}
					if !collide && leaf {
						if item < 0 {
							subR := 0
							if c.varyR > 0 {
								subR = r >> (c.varyR - 1)
							}
							n := outpos + 1
							if c.stable {
								n = 1
							}
							if c.firstn(m.Buckets[-1-item], n, 0, out2, outpos, count, recurseTries, 0, false, nil, subR) <= outpos {
								reject = true
							}
						} else {
							out2[outpos] = item
						}
					}
					if !reject && !collide && itemType == 0 {
						reject = isOut(c.reweight, item, c.x)
					}
				}
				if reject || collide {
					ftotal++
					flocal++
					switch {
					case collide && flocal <= c.localRetries:
						retryBucket = true
					case ftotal < tries:
						descend = true
					default:
						skip = true
					}
				}
			}
		}
		if skip {
			continue
		}
		out[outpos] = item
		outpos++
		count--
	}
	return outpos
}

// Do maps input x with rule ruleno into result, as crush_do_rule does
// (Ceph src/crush/mapper.c, v16.2): at most len(result) devices (at most
// MaxResult), in rule order, the first being the primary. reweight is
// the per-device in/out vector of is_out (0x10000 = in, 0 = out; nil: all
// in, as `crushtool --test` has them). It returns the number of devices
// written, which is less than len(result) when the rule cannot find
// enough (fewer failure domains than replicas, or too many devices out
// for the tries). The map must be valid ([Map.Validate]); Do does not
// allocate and does not modify the map.
func (m *Map) Do(ruleno int, x uint32, result []int32, reweight []uint32) int {
	if ruleno < 0 || ruleno >= len(m.Rules) {
		return 0
	}
	resultMax := min(len(result), MaxResult)
	var bufA, bufB, bufC [MaxResult]int32
	w, o, c := bufA[:resultMax], bufB[:resultMax], bufC[:resultMax]
	wsize := 0
	t := m.Tunables
	chooseTries := t.ChooseTotalTries + 1 // Ceph counts the first try too
	leafTries := 0
	ch := chooser{m: m, x: x, reweight: reweight, localRetries: t.ChooseLocalTries, varyR: t.ChooseLeafVaryR, stable: t.ChooseLeafStable}
	n := 0
	for _, s := range m.Rules[ruleno].Steps {
		switch s.Op {
		case OpTake:
			w[0] = int32(s.Arg1)
			wsize = 1
		case OpSetChooseTries:
			if s.Arg1 > 0 {
				chooseTries = s.Arg1
			}
		case OpSetChooseLeafTries:
			if s.Arg1 > 0 {
				leafTries = s.Arg1
			}
		case OpChooseFirstN, OpChooseLeafFirstN:
			if wsize == 0 {
				continue
			}
			leaf := s.Op == OpChooseLeafFirstN
			osize := 0
			for _, from := range w[:wsize] {
				numrep := s.Arg1
				if numrep <= 0 {
					if numrep += resultMax; numrep <= 0 {
						continue
					}
				}
				b := m.Bucket(from)
				if b == nil {
					continue
				}
				recurseTries := chooseTries
				switch {
				case leafTries > 0:
					recurseTries = leafTries
				case t.ChooseLeafDescendOnce:
					recurseTries = 1
				}
				osize += ch.firstn(b, numrep, s.Arg2, o[osize:], 0, resultMax-osize, chooseTries, recurseTries, leaf, c[osize:], 0)
			}
			if leaf {
				copy(o, c[:osize])
			}
			w, o = o, w
			wsize = osize
		case OpEmit:
			for _, v := range w[:wsize] {
				if n == resultMax {
					break
				}
				result[n] = v
				n++
			}
			wsize = 0
		}
	}
	return n
}
